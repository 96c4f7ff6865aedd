// cfusion_ring: the lock-free single-producer, single-consumer ring of cfusion_sample that hands
// samples from the sensor thread (the producer) to the detector (the consumer).
//
// Design, after rigtorp's SPSCQueue, DPDK's rte_ring and Linux's kfifo:
// - The capacity is a power of two. `head` (the next slot the producer fills) and `tail` (the next
//   slot the consumer reads) run freely as uint32_t and are reduced with `& mask` only to index a
//   slot; unsigned wrap-around keeps `head - tail` exact while capacity <= 2^31, so there is no
//   "one empty slot" rule and no index ever needs resetting.
// - `head` and `tail` each own a 64-byte cache line, with an empty line between them (as DPDK
//   does): the adjacent-line prefetcher moves lines in 128-byte pairs, so neighbours would still
//   share. Each side also keeps a private copy of the other's index on its own line and rereads
//   the shared one only when that copy says "full" or "too few", so a batch costs about one
//   cross-core transfer per side instead of one per item.
// - The producer never waits: when the ring is full, push drops the sample and counts it in a
//   counter that only the producer writes and anyone may read.
// - Batch APIs hand out contiguous spans inside the slot array (zero copy). A span never crosses
//   the end of the array: the caller gets the first contiguous part and loops for the rest.
//
// Threading contract: exactly one producer thread calls the producer functions and exactly one
// consumer thread calls the consumer functions; the "any thread" functions are safe anywhere.
// The ring is one allocation of cfusion_ring_memsize(capacity) bytes aligned to
// CFUSION_RING_ALIGNMENT: the header below, then the slots.
#ifndef CFUSION_RING_H
#define CFUSION_RING_H

#include "CFusion.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The benchmark compiles this header as C++ to run it beside boost::lockfree in one process;
// <stdatomic.h> is C-only before C++23, so C++ gets the same operations from <atomic>.
#ifdef __cplusplus
extern "C++" {
#include <atomic>
}
#define CFUSION_RING_ATOMIC(T) std::atomic<T>
#define CFUSION_RING_ALIGNAS(n) alignas(n)
using std::atomic_load_explicit;
using std::atomic_store_explicit;
using std::memory_order_acquire;
using std::memory_order_relaxed;
using std::memory_order_release;
#else
#include <stdatomic.h>
#define CFUSION_RING_ATOMIC(T) _Atomic(T)
#define CFUSION_RING_ALIGNAS(n) _Alignas(n)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes per cache line on x86-64 and on the Pi's Cortex-A cores.
#define CFUSION_RING_CACHE_LINE 64
/// Alignment the ring's memory must have.
#define CFUSION_RING_ALIGNMENT CFUSION_RING_CACHE_LINE
/// Largest capacity: `head - tail` must stay exact in uint32_t arithmetic.
#define CFUSION_RING_MAX_CAPACITY 0x80000000u

typedef struct cfusion_ring {
    // Line 0, read-only after init: sharing it between the cores costs nothing.
    CFUSION_RING_ALIGNAS(CFUSION_RING_CACHE_LINE) uint32_t capacity;
    uint32_t mask;

    // Line 1, the producer's: only the producer writes here.
    CFUSION_RING_ALIGNAS(CFUSION_RING_CACHE_LINE) CFUSION_RING_ATOMIC(uint32_t) head;
    uint32_t tail_cache;                     // the producer's last view of `tail`
    CFUSION_RING_ATOMIC(uint64_t) dropped;   // samples discarded because the ring was full

    // Line 2, empty (DPDK): keeps the producer's and consumer's lines out of one prefetch pair.
    CFUSION_RING_ALIGNAS(CFUSION_RING_CACHE_LINE) unsigned char pad_between_[CFUSION_RING_CACHE_LINE];

    // Line 3, the consumer's: only the consumer writes here.
    CFUSION_RING_ALIGNAS(CFUSION_RING_CACHE_LINE) CFUSION_RING_ATOMIC(uint32_t) tail;
    uint32_t head_cache;                     // the consumer's last view of `head`

    // Line 4, empty: the first slot line (written by the producer) pairs with this one, not with
    // the consumer's line.
    CFUSION_RING_ALIGNAS(CFUSION_RING_CACHE_LINE) unsigned char pad_after_[CFUSION_RING_CACHE_LINE];
    // The slots follow: capacity cfusion_sample records, from offset sizeof(cfusion_ring).
} cfusion_ring;

#ifndef __cplusplus
_Static_assert(offsetof(cfusion_ring, head) % CFUSION_RING_CACHE_LINE == 0, "head starts a cache line");
_Static_assert(offsetof(cfusion_ring, tail) % CFUSION_RING_CACHE_LINE == 0, "tail starts a cache line");
_Static_assert(offsetof(cfusion_ring, tail) - offsetof(cfusion_ring, head) >= 2 * CFUSION_RING_CACHE_LINE,
               "an empty line separates the producer's and the consumer's lines");
_Static_assert(offsetof(cfusion_ring, dropped) < offsetof(cfusion_ring, pad_between_),
               "the drop counter shares the producer's line, the only writer");
_Static_assert(sizeof(cfusion_ring) == 5 * CFUSION_RING_CACHE_LINE, "header is five cache lines");
_Static_assert(CFUSION_RING_CACHE_LINE % sizeof(cfusion_sample) == 0,
               "slots are line-aligned and no sample straddles two lines");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_LLONG_LOCK_FREE == 2,
               "the ring needs lock-free 32- and 64-bit atomics");
#endif

// MARK: - Setup (not concurrent with anything)

/// Bytes a ring of `capacity` samples needs, or 0 when `capacity` is not a power of two in
/// 1...CFUSION_RING_MAX_CAPACITY.
size_t cfusion_ring_memsize(uint32_t capacity);

/// Formats `memory` (cfusion_ring_memsize(capacity) bytes, CFUSION_RING_ALIGNMENT-aligned) as an
/// empty ring and returns it, or NULL for a bad capacity or misaligned memory.
cfusion_ring *cfusion_ring_init(void *memory, uint32_t capacity);

/// cfusion_ring_init with both indices starting at `initial_index` instead of 0, so tests can
/// cross the uint32_t wrap of the free-running indices without moving 2^32 samples.
cfusion_ring *cfusion_ring_init_at(void *memory, uint32_t capacity, uint32_t initial_index);

static inline cfusion_sample *cfusion_ring_slots(cfusion_ring *ring) {
    return (cfusion_sample *)(void *)((unsigned char *)ring + sizeof(cfusion_ring));
}

// Ordering edges, named once here and referred to below:
// (P) producer publishes: its slot writes, then `head` with release. The consumer loads `head`
//     with acquire, so every slot below the head it sees holds the complete sample.
// (C) consumer frees: its slot reads, then `tail` with release. The producer loads `tail` with
//     acquire, so it overwrites a slot only after the consumer's read of it has completed (on a
//     weakly ordered CPU such as the Pi's, a later store could otherwise overtake an earlier load).
// Each side reads its own index relaxed: it is the only writer, so it always sees its last value.

// MARK: - Producer (one thread)

/// Free slots as the producer sees them; exact except that the consumer may free more meanwhile.
static inline uint32_t cfusion_ring_free_count(cfusion_ring *ring) {
    uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    ring->tail_cache = atomic_load_explicit(&ring->tail, memory_order_acquire); // edge (C)
    return ring->capacity - (head - ring->tail_cache);
}

/// Adds `n` to the drop counter: samples the producer discarded for want of room.
static inline void cfusion_ring_drop(cfusion_ring *ring, uint64_t n) {
    // The producer is the only writer, so load + store needs no read-modify-write. Relaxed: the
    // count is a statistic and publishes no other memory.
    uint64_t dropped = atomic_load_explicit(&ring->dropped, memory_order_relaxed);
    atomic_store_explicit(&ring->dropped, dropped + n, memory_order_relaxed);
}

/// Copies `*sample` into the ring and returns true, or returns false when the ring is full.
/// Counts nothing as dropped: for a producer that may retry (tests, benchmarks).
static inline bool cfusion_ring_try_push(cfusion_ring *ring, const cfusion_sample *sample) {
    uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    if (head - ring->tail_cache == ring->capacity) {
        ring->tail_cache = atomic_load_explicit(&ring->tail, memory_order_acquire); // edge (C)
        if (head - ring->tail_cache == ring->capacity) return false;
    }
    cfusion_ring_slots(ring)[head & ring->mask] = *sample;
    atomic_store_explicit(&ring->head, head + 1, memory_order_release); // edge (P)
    return true;
}

/// Copies `*sample` into the ring and returns true; when the ring is full, counts it as dropped
/// and returns false. Never waits: the sensor thread's push.
static inline bool cfusion_ring_push(cfusion_ring *ring, const cfusion_sample *sample) {
    if (cfusion_ring_try_push(ring, sample)) return true;
    cfusion_ring_drop(ring, 1);
    return false;
}

/// Copies as many of the `count` samples at `samples` as fit (crossing the end of the slot array
/// if needed), publishes them at once, counts the rest as dropped and returns how many it stored.
static inline uint32_t cfusion_ring_push_bulk(cfusion_ring *ring, const cfusion_sample *samples,
                                              uint32_t count) {
    uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    uint32_t free_slots = ring->capacity - (head - ring->tail_cache);
    if (free_slots < count) {
        ring->tail_cache = atomic_load_explicit(&ring->tail, memory_order_acquire); // edge (C)
        free_slots = ring->capacity - (head - ring->tail_cache);
    }
    uint32_t stored = count < free_slots ? count : free_slots;
    if (stored > 0) {
        uint32_t index = head & ring->mask;
        uint32_t first = ring->capacity - index;
        if (first > stored) first = stored;
        cfusion_sample *slots = cfusion_ring_slots(ring);
        memcpy(slots + index, samples, (size_t)first * sizeof(cfusion_sample));
        memcpy(slots, samples + first, (size_t)(stored - first) * sizeof(cfusion_sample));
        atomic_store_explicit(&ring->head, head + stored, memory_order_release); // edge (P)
    }
    if (stored < count) cfusion_ring_drop(ring, count - stored);
    return stored;
}

/// Reserves up to `want` free slots that are contiguous in memory and points `*span` at the first.
/// Returns how many were reserved: fewer than `want` when the ring is nearly full or the span
/// reaches the end of the slot array (reserve again after committing for the rest), 0 when full.
/// Counts nothing as dropped: the caller decides (cfusion_ring_drop) or retries later.
/// Nothing is visible to the consumer until cfusion_ring_commit.
static inline uint32_t cfusion_ring_try_reserve(cfusion_ring *ring, uint32_t want, cfusion_sample **span) {
    uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    uint32_t free_slots = ring->capacity - (head - ring->tail_cache);
    if (free_slots < want) {
        ring->tail_cache = atomic_load_explicit(&ring->tail, memory_order_acquire); // edge (C)
        free_slots = ring->capacity - (head - ring->tail_cache);
    }
    uint32_t index = head & ring->mask;
    uint32_t contiguous = ring->capacity - index;
    uint32_t n = want < free_slots ? want : free_slots;
    if (n > contiguous) n = contiguous;
    *span = cfusion_ring_slots(ring) + index;
    return n;
}

/// Publishes the first `count` samples of the last reservation (count <= the reserved number).
static inline void cfusion_ring_commit(cfusion_ring *ring, uint32_t count) {
    uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    atomic_store_explicit(&ring->head, head + count, memory_order_release); // edge (P)
}

// MARK: - Consumer (one thread)

/// Samples ready for the consumer; exact except that the producer may add more meanwhile.
static inline uint32_t cfusion_ring_available(cfusion_ring *ring) {
    uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    ring->head_cache = atomic_load_explicit(&ring->head, memory_order_acquire); // edge (P)
    return ring->head_cache - tail;
}

/// Moves the oldest sample to `*out` and returns true, or returns false when the ring is empty.
static inline bool cfusion_ring_pop(cfusion_ring *ring, cfusion_sample *out) {
    uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    if (tail == ring->head_cache) {
        ring->head_cache = atomic_load_explicit(&ring->head, memory_order_acquire); // edge (P)
        if (tail == ring->head_cache) return false;
    }
    *out = cfusion_ring_slots(ring)[tail & ring->mask];
    atomic_store_explicit(&ring->tail, tail + 1, memory_order_release); // edge (C)
    return true;
}

/// Moves up to `max` of the oldest samples to `out` (crossing the end of the slot array if needed),
/// frees their slots at once and returns how many it moved.
static inline uint32_t cfusion_ring_pop_bulk(cfusion_ring *ring, cfusion_sample *out, uint32_t max) {
    uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    uint32_t ready = ring->head_cache - tail;
    if (ready < max) {
        ring->head_cache = atomic_load_explicit(&ring->head, memory_order_acquire); // edge (P)
        ready = ring->head_cache - tail;
    }
    uint32_t moved = max < ready ? max : ready;
    if (moved > 0) {
        uint32_t index = tail & ring->mask;
        uint32_t first = ring->capacity - index;
        if (first > moved) first = moved;
        const cfusion_sample *slots = cfusion_ring_slots(ring);
        memcpy(out, slots + index, (size_t)first * sizeof(cfusion_sample));
        memcpy(out + first, slots, (size_t)(moved - first) * sizeof(cfusion_sample));
        atomic_store_explicit(&ring->tail, tail + moved, memory_order_release); // edge (C)
    }
    return moved;
}

/// Points `*span` at up to `max` of the oldest samples, contiguous in memory, and returns how
/// many: fewer than `max` when fewer are ready or the span reaches the end of the slot array
/// (release, then peek again for the rest), 0 when empty. The slots stay the consumer's until
/// cfusion_ring_release.
static inline uint32_t cfusion_ring_peek(cfusion_ring *ring, uint32_t max, cfusion_sample **span) {
    uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    uint32_t ready = ring->head_cache - tail;
    if (ready < max) {
        ring->head_cache = atomic_load_explicit(&ring->head, memory_order_acquire); // edge (P)
        ready = ring->head_cache - tail;
    }
    uint32_t index = tail & ring->mask;
    uint32_t contiguous = ring->capacity - index;
    uint32_t n = max < ready ? max : ready;
    if (n > contiguous) n = contiguous;
    *span = cfusion_ring_slots(ring) + index;
    return n;
}

/// Frees the first `count` samples of the last peek (count <= the peeked number) for the producer.
static inline void cfusion_ring_release(cfusion_ring *ring, uint32_t count) {
    uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    atomic_store_explicit(&ring->tail, tail + count, memory_order_release); // edge (C)
}

// MARK: - Any thread

/// Samples dropped so far because the ring was full. Relaxed: a monotonic statistic that
/// publishes no other memory; a reader that first saw an item through `head` also sees at
/// least every drop the producer counted before publishing that item.
static inline uint64_t cfusion_ring_dropped(cfusion_ring *ring) {
    return atomic_load_explicit(&ring->dropped, memory_order_relaxed);
}

/// Samples in the ring at some recent moment (a snapshot for monitoring, not for control).
static inline uint32_t cfusion_ring_count(cfusion_ring *ring) {
    // Tail first: the head read after it is never behind it, so the difference cannot underflow;
    // both may have moved on in between, hence the clamp.
    uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
    uint32_t head = atomic_load_explicit(&ring->head, memory_order_acquire);
    uint32_t count = head - tail;
    return count > ring->capacity ? ring->capacity : count;
}

#ifdef __cplusplus
}
#endif

#endif
