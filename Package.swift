// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "detectord",
    products: [
        .library(name: "FallDetect", targets: ["FallDetect"]),
        .library(name: "DeviceLink", targets: ["DeviceLink"]),
        .executable(name: "detectord", targets: ["detectord"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // The C hot path: the sample record's exact layout and the SisFall text parser.
        .target(name: "CFusion"),

        // System libraries that DeviceLink links; the providers say which Debian package brings each.
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CI2C", providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Detection, workflow, datasets and evaluation. No hardware, no network.
        .target(
            name: "FallDetect",
            dependencies: ["CFusion", "CCrypt", .product(name: "GRDB", package: "GRDB.swift")],
            // The learned fall model, as data (docs/model-format.md); found by `FallModelFile.shipped()`.
            resources: [.copy("Resources/fall-model.txt")]
        ),

        // Hardware and network behind protocols: I2C, gpsd, Bluetooth LE and the signed webhook.
        .target(name: "DeviceLink", dependencies: ["FallDetect", "CGPS", "CI2C", "CBluetooth", "COpenSSL"]),

        .executableTarget(
            name: "detectord",
            dependencies: [
                "FallDetect", "DeviceLink",
                "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            // The device's own page: static files served as they are (no build step, no CDN).
            resources: [.copy("Web")]
        ),

        .testTarget(name: "FallDetectTests", dependencies: ["FallDetect", "CFusion", "TestSupport"]),
        .testTarget(name: "DeviceLinkTests", dependencies: ["DeviceLink", "CGPS", "CI2C", "CBluetooth", "TestSupport"]),
        // Helpers the test targets share: a loopback HTTP receiver, gpsd under gpsfake, payloads.
        .target(name: "TestSupport", dependencies: ["FallDetect"], path: "Tests/TestSupport"),
        .testTarget(
            name: "detectordTests",
            dependencies: [
                "detectord", "FallDetect", "DeviceLink", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The browser driver the page tests run (Python and selenium, in the oracle venv).
            exclude: ["Page"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
