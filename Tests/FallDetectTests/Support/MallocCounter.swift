#if canImport(Glibc)
import Glibc
import Synchronization

// Counts heap allocations made by one thread, for the "nothing allocates per sample" tests.
//
// Why this way: glibc 2.34+ has no malloc hooks, and mallinfo2() cannot see an allocation that is
// freed again (the chunk goes back to tcache). Defining `malloc` in the test executable works but
// breaks sanitizer builds, whose runtime defines it too. So, only while counting, the GOT slots of
// malloc, calloc, realloc, posix_memalign and aligned_alloc in every loaded object (the test
// executable, libswiftCore, Foundation, ...) are pointed at counting hooks that forward to
// whatever `dlsym(RTLD_DEFAULT, name)` resolves (glibc, or a sanitizer's interceptor), and put
// back afterwards. Swift allocations reach malloc through libswiftCore's GOT, so they are seen;
// `MallocCounter.isActive` proves it with an Array allocation (the positive control).

// One count at a time: tests run in parallel and the counter is process-wide.
private let countLock = Mutex(())
private let armedThread = Atomic<UInt>(0)
private let allocations = Atomic<Int>(0)
private let realMalloc = Atomic<UInt>(0)  // address bits (UnsafeRawPointer is not Sendable)
private let realCalloc = Atomic<UInt>(0)  // address bits (UnsafeRawPointer is not Sendable)
private let realRealloc = Atomic<UInt>(0)  // address bits (UnsafeRawPointer is not Sendable)
private let realPosixMemalign = Atomic<UInt>(0)  // address bits (UnsafeRawPointer is not Sendable)
private let realAlignedAlloc = Atomic<UInt>(0)  // address bits (UnsafeRawPointer is not Sendable)

private typealias MallocFn = @convention(c) (Int) -> UnsafeMutableRawPointer?
private typealias CallocFn = @convention(c) (Int, Int) -> UnsafeMutableRawPointer?
private typealias ReallocFn = @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?
private typealias PosixMemalignFn = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int, Int) -> Int32
private typealias AlignedAllocFn = @convention(c) (Int, Int) -> UnsafeMutableRawPointer?

// Runs inside other threads' allocations too: atomics only, nothing that allocates.
@inline(__always) private func noteAllocation() {
    if armedThread.load(ordering: .relaxed) == UInt(pthread_self()) {
        allocations.add(1, ordering: .relaxed)
    }
}

private let mallocHook: MallocFn = { size in
    noteAllocation()
    return unsafeBitCast(UnsafeRawPointer(bitPattern: realMalloc.load(ordering: .relaxed))!, to: MallocFn.self)(size)
}
private let callocHook: CallocFn = { count, size in
    noteAllocation()
    return unsafeBitCast(UnsafeRawPointer(bitPattern: realCalloc.load(ordering: .relaxed))!, to: CallocFn.self)(count, size)
}
private let reallocHook: ReallocFn = { pointer, size in
    noteAllocation()
    return unsafeBitCast(UnsafeRawPointer(bitPattern: realRealloc.load(ordering: .relaxed))!, to: ReallocFn.self)(pointer, size)
}
private let posixMemalignHook: PosixMemalignFn = { out, alignment, size in
    noteAllocation()
    return unsafeBitCast(UnsafeRawPointer(bitPattern: realPosixMemalign.load(ordering: .relaxed))!, to: PosixMemalignFn.self)(out, alignment, size)
}
private let alignedAllocHook: AlignedAllocFn = { alignment, size in
    noteAllocation()
    return unsafeBitCast(UnsafeRawPointer(bitPattern: realAlignedAlloc.load(ordering: .relaxed))!, to: AlignedAllocFn.self)(alignment, size)
}

/// One GOT slot redirected to a hook, with the value to restore.
private struct Patch {
    let slot: UnsafeMutablePointer<UnsafeRawPointer?>
    let original: UnsafeRawPointer?
}

enum MallocCounter {
    /// Allocations made by the calling thread while `body` runs (concurrent calls wait their turn).
    static func count(_ body: () -> Void) -> Int {
        countLock.withLock { _ in countLocked(body) }
    }

    private static func countLocked(_ body: () -> Void) -> Int {
        resolveRealFunctions()
        let hooks: [String: UnsafeRawPointer] = [
            "malloc": unsafeBitCast(mallocHook, to: UnsafeRawPointer.self),
            "calloc": unsafeBitCast(callocHook, to: UnsafeRawPointer.self),
            "realloc": unsafeBitCast(reallocHook, to: UnsafeRawPointer.self),
            "posix_memalign": unsafeBitCast(posixMemalignHook, to: UnsafeRawPointer.self),
            "aligned_alloc": unsafeBitCast(alignedAllocHook, to: UnsafeRawPointer.self),
        ]
        let patches = patchGOTs(hooks)  // allocates, before counting starts
        allocations.store(0, ordering: .relaxed)
        armedThread.store(UInt(pthread_self()), ordering: .relaxed)
        body()
        armedThread.store(0, ordering: .relaxed)
        for p in patches.reversed() {
            p.slot.pointee = p.original
        }
        return allocations.load(ordering: .relaxed)
    }

    /// Allocations so far in the running `count` (for locating one).
    static var current: Int { allocations.load(ordering: .relaxed) }

    /// True when allocations inside shared libraries reach the counter.
    static var isActive: Bool {
        count { blackHole(Array(repeating: 1, count: 64)) } > 0
    }

    private static func resolveRealFunctions() {
        func resolve(_ name: String) -> UInt {
            UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), name))  // RTLD_DEFAULT
        }
        realMalloc.store(resolve("malloc"), ordering: .relaxed)
        realCalloc.store(resolve("calloc"), ordering: .relaxed)
        realRealloc.store(resolve("realloc"), ordering: .relaxed)
        realPosixMemalign.store(resolve("posix_memalign"), ordering: .relaxed)
        realAlignedAlloc.store(resolve("aligned_alloc"), ordering: .relaxed)
    }

    /// Redirects the named symbols' GOT slots in every loaded object except the dynamic loader.
    private static func patchGOTs(_ hooks: [String: UnsafeRawPointer]) -> [Patch] {
        #if arch(x86_64)
        let relocationTypes: Set<UInt64> = [6, 7]  // R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT
        #elseif arch(arm64)
        let relocationTypes: Set<UInt64> = [1025, 1026]  // R_AARCH64_GLOB_DAT, R_AARCH64_JUMP_SLOT
        #else
        let relocationTypes: Set<UInt64> = []
        #endif
        var patches: [Patch] = []
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        // glibc: a dlopen handle is the object's `struct link_map` (l_addr, l_name, l_ld, l_next, l_prev);
        // the main program's map heads the list.
        var map = dlopen(nil, RTLD_NOW).map { UnsafeRawPointer($0) }
        while let m = map {
            defer { map = m.load(fromByteOffset: 24, as: UnsafeRawPointer?.self) }
            let base = m.load(fromByteOffset: 0, as: UInt.self)
            let name = m.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            guard !name.contains("ld-linux"), !name.contains("linux-vdso"),
                let dynamic = m.load(fromByteOffset: 16, as: UnsafeRawPointer?.self)
            else { continue }
            var symtab: UInt = 0, strtab: UInt = 0, rela: UInt = 0, relaSize: UInt = 0, jmprel: UInt = 0, jmprelSize: UInt = 0
            var entry = dynamic
            while true {
                let tag = entry.load(as: Int64.self)
                let value = entry.load(fromByteOffset: 8, as: UInt.self)
                if tag == 0 { break }
                switch tag {
                case 2: jmprelSize = value  // DT_PLTRELSZ
                case 5: strtab = value  // DT_STRTAB
                case 6: symtab = value  // DT_SYMTAB
                case 7: rela = value  // DT_RELA
                case 8: relaSize = value  // DT_RELASZ
                case 23: jmprel = value  // DT_JMPREL
                default: break
                }
                entry += 16
            }
            // glibc stores these as run-time addresses; be safe if one is still an offset.
            func address(_ v: UInt) -> UInt { v != 0 && v < base ? v + base : v }
            guard symtab != 0, strtab != 0 else { continue }
            let symbols = UnsafeRawPointer(bitPattern: address(symtab))!
            let strings = UnsafeRawPointer(bitPattern: address(strtab))!
            for (table, size) in [(rela, relaSize), (jmprel, jmprelSize)] where table != 0 && size != 0 {
                let relocations = UnsafeRawPointer(bitPattern: address(table))!
                for i in 0..<(Int(size) / 24) {  // Elf64_Rela: r_offset, r_info, r_addend
                    let r = relocations + i * 24
                    let info = r.load(fromByteOffset: 8, as: UInt64.self)
                    guard relocationTypes.contains(info & 0xffff_ffff) else { continue }
                    let symbolName = symbols.load(fromByteOffset: Int(info >> 32) * 24, as: UInt32.self)  // Elf64_Sym.st_name
                    let symbol = String(cString: (strings + Int(symbolName)).assumingMemoryBound(to: CChar.self))
                    guard let hook = hooks[symbol] else { continue }
                    let slotAddress = base &+ UInt(r.load(as: UInt64.self))
                    let page = slotAddress & ~UInt(pageSize - 1)
                    // RELRO makes the GOT read-only after start-up; tests may write it.
                    guard mprotect(UnsafeMutableRawPointer(bitPattern: page), pageSize, PROT_READ | PROT_WRITE) == 0 else {
                        continue
                    }
                    let slot = UnsafeMutablePointer<UnsafeRawPointer?>(bitPattern: slotAddress)!
                    patches.append(Patch(slot: slot, original: slot.pointee))
                    slot.pointee = hook
                }
            }
        }
        return patches
    }
}

@inline(never) func blackHole<T>(_ value: T) {}
#endif
