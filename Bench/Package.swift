// swift-tools-version:6.0
// Benchmarks, kept out of the main package so that `swift build` there never builds them.
// Build: swift build -c release --package-path Bench
import PackageDescription

// A path dependency's identity is its folder's name, which differs between clones.
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "main"

let package = Package(
    name: "detectord-bench",
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "parse-bench",
            dependencies: [.product(name: "FallDetect", package: root)],
            path: "parse",
            exclude: ["peers.py", "run.sh"],
            sources: ["main.swift"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
