// swift-tools-version: 6.1
// GRDB.swift 7 needs tools version 6.1.

import PackageDescription

let package = Package(
    name: "diary",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "diary", targets: ["diary"]),
        .library(name: "DiaryCrypto", targets: ["DiaryCrypto"]),
        .library(name: "DiaryVault", targets: ["DiaryVault"]),
        .library(name: "DiaryAgent", targets: ["DiaryAgent"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Day One exports arrive as .zip files; Foundation on Linux cannot read them.
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        // libsodium, found through pkg-config; Debian's libsodium-dev provides it.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // The only module that imports CSodium: no C type leaves it.
        .target(name: "DiaryCrypto", dependencies: ["CSodium"]),
        .target(
            name: "DiaryVault",
            dependencies: [
                "DiaryCrypto",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(name: "DiaryAgent", dependencies: ["DiaryCrypto"]),
        .executableTarget(
            name: "diary",
            dependencies: [
                "DiaryVault", "DiaryAgent",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Release builds link the Swift runtime and Foundation (with ICU's data) statically:
            // every command then starts without loading and relocating a dozen shared libraries
            // (issue 6: `diary status` 22.7 -> 16.6 ms). The flag is needed when compiling too, so
            // that `import Foundation` links the static libraries' dependencies (_FoundationICU).
            // Costs ~1.2 s more per release link and a larger binary (92 MB unstripped); debug
            // and test builds keep the shared libraries and link as fast as before.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        // A child process for the crash (SIGKILL) and multi-process tests of DiaryVault; it is
        // not part of the product.
        .executableTarget(
            name: "diary-vault-stress",
            dependencies: ["DiaryVault", "DiaryCrypto"],
            path: "Tests/VaultStressChild"
        ),
        // In-process benchmarks of the vault layer (Scripts/bench-* drive it); not in the product.
        .executableTarget(
            name: "diary-bench",
            dependencies: ["DiaryVault", "DiaryCrypto"],
            path: "Scripts/Bench"
        ),
        .testTarget(
            name: "DiaryCryptoTests",
            dependencies: ["DiaryCrypto"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "DiaryVaultTests",
            dependencies: ["DiaryVault", "DiaryCrypto", .product(name: "GRDB", package: "GRDB.swift")],
            // A vault written by an earlier version of the format, opened in place by the tests.
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "DiaryAgentTests", dependencies: ["DiaryAgent", "DiaryCrypto"]),
        .testTarget(name: "diaryTests", dependencies: ["DiaryVault", "DiaryCrypto"]),
    ]
)
