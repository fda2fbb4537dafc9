// swift-tools-version:6.1
// libFuzzer targets for poiar's readers, kept out of the main package's build and of
// `swift test`. Build and run them with `fuzz/run.sh TARGET SECONDS` (docs/robustness.md,
// "Fuzzing"): the script adds `-sanitize=fuzzer,address`.
// Each target's main.swift hands its test function to libFuzzer's driver (`Fuzz.run`).
import PackageDescription

let package = Package(
    name: "poiar-fuzz",
    dependencies: [.package(name: "poiar", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer", .product(name: "POIAR", package: "poiar")]),
        .executableTarget(name: "FuzzLog", dependencies: ["FuzzSupport", .product(name: "POIAR", package: "poiar")]),
        .executableTarget(name: "FuzzPhone", dependencies: ["FuzzSupport", .product(name: "POIAR", package: "poiar")]),
        .executableTarget(name: "FuzzPBF", dependencies: ["FuzzSupport", .product(name: "POIAR", package: "poiar")]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport", .product(name: "POIAR", package: "poiar")]),
        .executableTarget(name: "FuzzOSMXML", dependencies: ["FuzzSupport", .product(name: "POIAR", package: "poiar")]),
        .executableTarget(name: "FuzzSource", dependencies: ["FuzzSupport", .product(name: "POIAR", package: "poiar")]),
    ],
    swiftLanguageModes: [.v6]
)
