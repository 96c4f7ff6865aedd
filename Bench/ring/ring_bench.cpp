// Cross-core throughput of cfusion_ring against boost::lockfree::spsc_queue, in one process and
// one run: a producer thread and a consumer thread (pinned to two CPUs when allowed) move
// sequence-numbered 32-byte cfusion_sample records; the consumer checks every sequence number.
// Variants are interleaved run by run so that the machine's drift hits both sides alike. Output:
// one JSON line per metric on stdout (ours and peer_value: the medians of the runs; ratio: the
// median of the per-round ratios, ours over the peer measured right after it, which survives the
// load of this shared machine changing between rounds), per-run figures on stderr.
//
// Environment: RING_BENCH_RUNS (default 5), RING_BENCH_SINGLE_ITEMS (default 5e6),
// RING_BENCH_BATCH_ITEMS (default 3e7).
#ifndef NDEBUG
#error "build the benchmark with -DNDEBUG: timing code with debug checks compiled in misleads"
#endif

// CFusion.h checks its layout with C11 spellings; give C++ the same meaning.
#define _Static_assert static_assert
#define _Alignof alignof
#include "CFusion.h"
#undef _Static_assert
#undef _Alignof

#include <boost/lockfree/spsc_queue.hpp>
#include <boost/version.hpp>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
static inline void cpu_relax() { _mm_pause(); }
#elif defined(__aarch64__)
static inline void cpu_relax() { asm volatile("yield"); }
#else
static inline void cpu_relax() {}
#endif

namespace {

constexpr uint32_t kBatch = 64;

struct Pinning {
    int producer_cpu = -1;
    int consumer_cpu = -1;
};

Pinning choose_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    Pinning p;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return p;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        if (p.producer_cpu < 0) p.producer_cpu = cpu;
        else if (p.consumer_cpu < 0) { p.consumer_cpu = cpu; break; }
    }
    return p;
}

bool pin_self(int cpu) {
    if (cpu < 0) return false;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

inline cfusion_sample make_sample(int64_t seq) {
    cfusion_sample s;
    s.timestamp_ns = seq;
    s.ax = 0.0f; s.ay = 0.0f; s.az = 1.0f;
    s.gx = 0.5f; s.gy = -0.5f; s.gz = (float)(seq & 1023);
    return s;
}

// What each consumer does per record: check the sequence and touch a payload field, so no
// variant can skip reading the record.
struct Checker {
    int64_t expected = 0;
    int64_t errors = 0;
    float sum = 0.0f;
    inline void see(const cfusion_sample &s) {
        errors += s.timestamp_ns != expected;
        sum += s.gz;
        expected++;
    }
};

struct RunResult {
    double items_per_second = 0;
    int64_t errors = 0;
};

// Runs producer(items) and consumer(items, checker) on two pinned threads, timed from a common
// start signal to the consumer's last record.
template <typename Producer, typename Consumer>
RunResult run_pair(const Pinning &cpus, int64_t items, Producer producer, Consumer consumer) {
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    RunResult result;
    std::chrono::steady_clock::time_point start, end;
    Checker checker;

    std::thread consumer_thread([&] {
        pin_self(cpus.consumer_cpu);
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) cpu_relax();
        consumer(items, checker);
        end = std::chrono::steady_clock::now();
    });
    std::thread producer_thread([&] {
        pin_self(cpus.producer_cpu);
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) cpu_relax();
        producer(items);
    });
    while (ready.load() < 2) std::this_thread::yield();
    start = std::chrono::steady_clock::now();
    go.store(true, std::memory_order_release);
    producer_thread.join();
    consumer_thread.join();

    double seconds = std::chrono::duration<double>(end - start).count();
    result.items_per_second = (double)items / seconds;
    result.errors = checker.errors + (checker.expected != items) + (checker.sum < 0);
    return result;
}

// MARK: - ours

struct OurRing {
    void *memory;
    cfusion_ring *ring;
    explicit OurRing(uint32_t capacity) {
        memory = std::aligned_alloc(CFUSION_RING_ALIGNMENT, cfusion_ring_memsize(capacity));
        ring = cfusion_ring_init(memory, capacity);
        if (!ring) { std::fprintf(stderr, "cfusion_ring_init failed\n"); std::exit(1); }
    }
    ~OurRing() { std::free(memory); }
};

RunResult ours_single(const Pinning &cpus, uint32_t capacity, int64_t items) {
    OurRing r(capacity);
    return run_pair(cpus, items,
        [&](int64_t n) {
            for (int64_t i = 0; i < n; i++) {
                cfusion_sample s = make_sample(i);
                while (!cfusion_ring_try_push(r.ring, &s)) cpu_relax();
            }
        },
        [&](int64_t n, Checker &c) {
            cfusion_sample s;
            for (int64_t i = 0; i < n; i++) {
                while (!cfusion_ring_pop(r.ring, &s)) cpu_relax();
                c.see(s);
            }
        });
}

RunResult ours_batched(const Pinning &cpus, uint32_t capacity, int64_t items) {
    OurRing r(capacity);
    return run_pair(cpus, items,
        [&](int64_t n) {
            int64_t next = 0;
            while (next < n) {
                cfusion_sample *span;
                uint32_t want = (uint32_t)std::min<int64_t>(kBatch, n - next);
                uint32_t got = cfusion_ring_try_reserve(r.ring, want, &span);
                if (got == 0) { cpu_relax(); continue; }
                for (uint32_t i = 0; i < got; i++) span[i] = make_sample(next + i);
                cfusion_ring_commit(r.ring, got);
                next += got;
            }
        },
        [&](int64_t n, Checker &c) {
            int64_t seen = 0;
            while (seen < n) {
                cfusion_sample *span;
                uint32_t got = cfusion_ring_peek(r.ring, kBatch, &span);
                if (got == 0) { cpu_relax(); continue; }
                for (uint32_t i = 0; i < got; i++) c.see(span[i]);
                cfusion_ring_release(r.ring, got);
                seen += got;
            }
        });
}

// MARK: - boost::lockfree::spsc_queue (compile-time capacity: its fastest form)

template <size_t Capacity>
using BoostQueue = boost::lockfree::spsc_queue<cfusion_sample, boost::lockfree::capacity<Capacity>>;

template <size_t Capacity>
RunResult boost_single(const Pinning &cpus, int64_t items) {
    auto q = std::make_unique<BoostQueue<Capacity>>();
    return run_pair(cpus, items,
        [&](int64_t n) {
            for (int64_t i = 0; i < n; i++) {
                cfusion_sample s = make_sample(i);
                while (!q->push(s)) cpu_relax();
            }
        },
        [&](int64_t n, Checker &c) {
            cfusion_sample s;
            for (int64_t i = 0; i < n; i++) {
                while (!q->pop(s)) cpu_relax();
                c.see(s);
            }
        });
}

// boost's own batch API: push(const T*, n) and pop(T*, n) copy through a caller's buffer.
template <size_t Capacity>
RunResult boost_bulk(const Pinning &cpus, int64_t items) {
    auto q = std::make_unique<BoostQueue<Capacity>>();
    return run_pair(cpus, items,
        [&](int64_t n) {
            cfusion_sample batch[kBatch];
            int64_t next = 0;
            while (next < n) {
                size_t k = (size_t)std::min<int64_t>(kBatch, n - next);
                for (size_t i = 0; i < k; i++) batch[i] = make_sample(next + (int64_t)i);
                size_t pushed = 0;
                while (pushed < k) {
                    size_t got = q->push(batch + pushed, k - pushed);
                    if (got == 0) cpu_relax();
                    pushed += got;
                }
                next += (int64_t)k;
            }
        },
        [&](int64_t n, Checker &c) {
            cfusion_sample batch[kBatch];
            int64_t seen = 0;
            while (seen < n) {
                size_t got = q->pop(batch, kBatch);
                if (got == 0) { cpu_relax(); continue; }
                for (size_t i = 0; i < got; i++) c.see(batch[i]);
                seen += (int64_t)got;
            }
        });
}

// MARK: - driver

int64_t env_count(const char *name, int64_t fallback) {
    const char *v = std::getenv(name);
    if (!v || !*v) return fallback;
    double d = std::atof(v);
    return d > 0 ? (int64_t)d : fallback;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Metric {
    std::string name;
    std::string peer;
    std::vector<double> ours, peer_values;
    std::vector<double> ratios;  // per round, ours / peer
};

std::string list(const std::vector<double> &v) {
    std::string s;
    char buf[32];
    for (size_t i = 0; i < v.size(); i++) {
        std::snprintf(buf, sizeof buf, "%s%.1f", i ? " " : "", v[i] / 1e6);
        s += buf;
    }
    return s;
}

}  // namespace

int main() {
    const int runs = (int)env_count("RING_BENCH_RUNS", 5);
    const int64_t single_items = env_count("RING_BENCH_SINGLE_ITEMS", 5000000);
    const int64_t batch_items = env_count("RING_BENCH_BATCH_ITEMS", 30000000);

    Pinning cpus = choose_cpus();
    bool pinned = cpus.consumer_cpu >= 0;
    if (!pinned) cpus = Pinning{};  // fewer than two CPUs allowed: let the scheduler place them
    std::fprintf(stderr, "ring bench: producer cpu %d, consumer cpu %d%s; %d runs; %lld single / %lld batched items; boost %d.%d\n",
                 cpus.producer_cpu, cpus.consumer_cpu, pinned ? "" : " (not pinned)", runs,
                 (long long)single_items, (long long)batch_items, BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000);

    const std::string boost_name = "boost::lockfree::spsc_queue " + std::to_string(BOOST_VERSION / 100000) + "." +
                                   std::to_string(BOOST_VERSION / 100 % 1000);
    std::vector<Metric> metrics = {
        {"ring_single_item_cap1024", boost_name + " push/pop", {}, {}, {}},
        {"ring_batched64_cap1024", boost_name + " push/pop", {}, {}, {}},
        {"ring_batched64_cap1024_vs_boost_bulk", boost_name + " push(T*,n)/pop(T*,n)", {}, {}, {}},
        {"ring_single_item_cap65536", boost_name + " push/pop", {}, {}, {}},
        {"ring_batched64_cap65536", boost_name + " push/pop", {}, {}, {}},
        {"ring_batched64_cap65536_vs_boost_bulk", boost_name + " push(T*,n)/pop(T*,n)", {}, {}, {}},
    };

    int64_t errors = 0;
    auto record = [&](std::vector<double> &into, RunResult r) {
        errors += r.errors;
        into.push_back(r.items_per_second);
    };

    for (int run = 0; run < runs; run++) {
        for (int c = 0; c < 2; c++) {
            const uint32_t capacity = c == 0 ? 1024 : 65536;
            Metric *m = &metrics[c * 3];
            // Each configuration runs once per round: ours, then the peers, in a fixed order.
            double boost_single_value;
            {
                RunResult o = ours_single(cpus, capacity, single_items);
                RunResult b = c == 0 ? boost_single<1024>(cpus, single_items) : boost_single<65536>(cpus, single_items);
                record(m[0].ours, o);
                record(m[0].peer_values, b);
                m[0].ratios.push_back(o.items_per_second / b.items_per_second);
                boost_single_value = b.items_per_second;
            }
            {
                RunResult o = ours_batched(cpus, capacity, batch_items);
                RunResult b = c == 0 ? boost_bulk<1024>(cpus, batch_items) : boost_bulk<65536>(cpus, batch_items);
                record(m[1].ours, o);
                m[1].peer_values.push_back(boost_single_value);
                m[1].ratios.push_back(o.items_per_second / boost_single_value);
                m[2].ours.push_back(o.items_per_second);
                record(m[2].peer_values, b);
                m[2].ratios.push_back(o.items_per_second / b.items_per_second);
            }
        }
    }

    for (const Metric &m : metrics) {
        double ours = median(m.ours), peer = median(m.peer_values), ratio = median(m.ratios);
        std::fprintf(stderr, "%-38s ours [%s]  peer [%s] M items/s\n", m.name.c_str(), list(m.ours).c_str(),
                     list(m.peer_values).c_str());
        std::printf("{\"name\": \"%s\", \"unit\": \"M items/s\", \"ours\": %.1f, \"peer\": \"%s\", "
                    "\"peer_value\": %.1f, \"ratio\": %.2f}\n",
                    m.name.c_str(), ours / 1e6, m.peer.c_str(), peer / 1e6, ratio);
    }
    if (errors != 0) {
        std::fprintf(stderr, "ring bench: %lld sequence errors: a ring lost, duplicated or reordered records\n",
                     (long long)errors);
        return 1;
    }
    return 0;
}
