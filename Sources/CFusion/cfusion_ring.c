// cfusion_ring set-up; the hot path is static inline in cfusion_ring.h so callers inline it.
#include "cfusion_ring.h"

size_t cfusion_ring_memsize(uint32_t capacity) {
    if (capacity == 0 || capacity > CFUSION_RING_MAX_CAPACITY || (capacity & (capacity - 1)) != 0) return 0;
    return sizeof(cfusion_ring) + (size_t)capacity * sizeof(cfusion_sample);
}

cfusion_ring *cfusion_ring_init_at(void *memory, uint32_t capacity, uint32_t initial_index) {
    if (memory == NULL || cfusion_ring_memsize(capacity) == 0) return NULL;
    if ((uintptr_t)memory % CFUSION_RING_ALIGNMENT != 0) return NULL;
    cfusion_ring *ring = (cfusion_ring *)memory;
    memset(ring, 0, sizeof *ring);
    ring->capacity = capacity;
    ring->mask = capacity - 1;
    // Plain initialisation: no other thread can see the ring yet; whoever starts the producer and
    // consumer threads afterwards publishes these stores to them.
    atomic_init(&ring->head, initial_index);
    atomic_init(&ring->tail, initial_index);
    atomic_init(&ring->dropped, 0);
    ring->tail_cache = initial_index;
    ring->head_cache = initial_index;
    return ring;
}

cfusion_ring *cfusion_ring_init(void *memory, uint32_t capacity) {
    return cfusion_ring_init_at(memory, capacity, 0);
}
