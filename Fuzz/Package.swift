// swift-tools-version: 6.1
// The libFuzzer targets, in a package of their own: an executable without `main` links only
// with the fuzzer runtime (--sanitize=fuzzer), so these cannot live in the root package
// without breaking its plain `swift build`. Each calls one entry point of the root package's
// DiaryFuzzing library (Tests/DiaryFuzzing), which `diary` itself does not link. Run them
// with Scripts/fuzz.

import PackageDescription

/// One executable per parser; each file defines only `LLVMFuzzerTestOneInput`.
let targets = [
    "FuzzHeader", "FuzzEnvelope", "FuzzPadding", "FuzzEntry", "FuzzIndex", "FuzzBackup", "FuzzDayOneZip",
    "FuzzMarkdown", "FuzzShare",
]

let package = Package(
    name: "DiaryFuzz",
    platforms: [.macOS(.v13)],
    products: targets.map { .executable(name: $0, targets: [$0]) },
    dependencies: [.package(name: "diary", path: "..")],
    targets: targets.map { name in
        .executableTarget(name: name, dependencies: [.product(name: "DiaryFuzzing", package: "diary")])
    }
)
