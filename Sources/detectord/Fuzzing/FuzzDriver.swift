#if DETECTORD_FUZZ
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's own driver, called from our `main` (a `make fuzz` build links libFuzzer, whose
/// `main` ours replaces): it parses its flags, loads the corpus and calls back once per input.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target the callback feeds; set once before the driver starts, read only by its thread.
nonisolated(unsafe) private var fuzzedTarget = FuzzTarget.csv

/// libFuzzer's archive refers to this symbol even when its driver is given another callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if case .violated(let why) = fuzzedTarget.consume(bytes) {
        // The finding: libFuzzer saves the input when the process aborts.
        let message = "fuzz target \(fuzzedTarget.rawValue): \(why)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        abort()
    }
    return 0
}

enum FuzzDriver {
    static func run(_ target: FuzzTarget, arguments: [String]) -> Int32 {
        fuzzedTarget = target
        let words = [CommandLine.arguments[0]] + arguments
        var pointers: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        var argc = CInt(words.count)
        return pointers.withUnsafeMutableBufferPointer { buffer in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return llvmFuzzerRunDriver(&argc, &argv, llvmFuzzerTestOneInput)
        }
    }
}
#endif
