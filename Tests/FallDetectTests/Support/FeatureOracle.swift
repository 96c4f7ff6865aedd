import Foundation
import Testing

/// The scipy/numpy reference for the feature kernels, run on SisFall falls when the data is there
/// (else on the script's synthetic signal), plus a synthetic run at a low cutoff.
struct FeatureOracle {
    let folder: String
    let meta: [String: Any]
    let input: [SIMD3<Float>]

    static func run(_ arguments: [String] = [], useSisFall: Bool = true) throws -> FeatureOracle? {
        var args = arguments
        if useSisFall, let root = SharedData.sisFallRoot() {
            args += ["--sisfall", "\(root)/SisFall_dataset"]
        }
        guard let folder = try Oracle.run("features_oracle.py", args) else { return nil }
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/meta.json"))
        let meta = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let flat = try Oracle.read("\(folder)/features_input.f32", as: Float.self)
        let input = stride(from: 0, to: flat.count, by: 3).map { SIMD3(flat[$0], flat[$0 + 1], flat[$0 + 2]) }
        return FeatureOracle(folder: folder, meta: meta, input: input)
    }

    func doubles(_ name: String) throws -> [Double] {
        try Oracle.read("\(folder)/\(name)", as: Double.self)
    }

    func number(_ key: String) -> Double { (meta[key] as? NSNumber)?.doubleValue ?? .nan }

    func remove() { Oracle.remove(folder) }
}
