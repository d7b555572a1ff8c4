// swift-tools-version: 6.1
// GRDB.swift 7 needs tools version 6.1.

import PackageDescription

let package = Package(
    name: "diary",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "diary", targets: ["diary"]),
        .library(name: "DiaryCrypto", targets: ["DiaryCrypto"]),
        .library(name: "DiaryStore", targets: ["DiaryStore"]),
        .library(name: "DiaryVault", targets: ["DiaryVault"]),
        .library(name: "DiaryExchange", targets: ["DiaryExchange"]),
        .library(name: "DiaryAgent", targets: ["DiaryAgent"]),
        .library(name: "DiarySync", targets: ["DiarySync"]),
        .library(name: "DiaryApp", targets: ["DiaryApp"]),
        .library(name: "DiaryMarkdown", targets: ["DiaryMarkdown"]),
        // For the fuzz package in Fuzz/ only; `diary` does not link it.
        .library(name: "DiaryFuzzing", targets: ["DiaryFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // The config file's TOML (toml++ underneath); only DiaryApp imports it.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
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
        // SQLite's process-wide settings (sqlite3_config is variadic: Swift calls these fixed
        // forms). The same system libsqlite3 GRDB links; only DiaryStore imports it.
        .systemLibrary(name: "CSQLiteSetup", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Where sealed bytes live: the SQLite store, the files store, the journal and the lock.
        // The only importer of GRDB; it never sees a key or plaintext.
        .target(
            name: "DiaryStore",
            dependencies: ["DiaryCrypto", "CSQLiteSetup", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The format, header and keys, entries, the sealed index, rotation, backup and verify.
        .target(name: "DiaryVault", dependencies: ["DiaryCrypto", "DiaryStore"]),
        // zlib, for the deflated members of a Day One .zip (Foundation on Linux cannot inflate).
        // Debian's zlib1g-dev provides it.
        .systemLibrary(
            name: "CZlibInflate",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Import and export: plaintext in, plaintext out, never a sealed byte. Reads Day One's
        // .zip with its own strict reader (Zip/) and zlib: ZIPFoundation 0.9.20 trapped on
        // crafted archives, and a trap kills diary.
        .target(name: "DiaryExchange", dependencies: ["DiaryVault", "CZlibInflate", "DiaryMarkdown"]),
        // cmark-gfm, the CommonMark parser; Debian's libcmark-gfm-dev provides it. Linked by the
        // module map, not pkg-config: its libcmark-gfm.pc also names the extensions library,
        // which that package does not install (and diary does not use).
        .systemLibrary(name: "CCmarkGFM", providers: [.apt(["libcmark-gfm-dev"])]),
        // Markdown as a tree of Swift values (the only importer of CCmarkGFM: no C type leaves
        // it) and its HTML, where nothing in an entry can run. The CLI renders it for the terminal.
        .target(name: "DiaryMarkdown", dependencies: ["CCmarkGFM"]),
        // libqrencode (Debian's libqrencode-dev): the QR code of the recovery key, drawn on the
        // terminal by the CLI, its only importer.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "DiaryAgent", dependencies: ["DiaryCrypto"]),
        // One diary on several machines through a git remote or a synced folder: sealed,
        // write-once records per machine, merged into the local vault (docs/FORMAT.md §12).
        // Drives the `git` program; never sees a plaintext byte on disk.
        .target(name: "DiarySync", dependencies: ["DiaryVault", "DiaryStore", "DiaryCrypto"]),
        // The application layer: sessions and policy (which key, the entry-set guard, the
        // key-change flow), input parsing and reports, as typed values. It never imports
        // ArgumentParser, never writes to a standard stream and never opens the terminal: the
        // CLI words what it returns.
        .target(
            name: "DiaryApp",
            dependencies: [
                "DiaryVault", "DiaryStore", "DiaryCrypto", "DiaryExchange", "DiaryAgent", "DiarySync",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .executableTarget(
            name: "diary",
            dependencies: [
                "DiaryApp", "DiaryVault", "DiaryExchange", "DiaryAgent", "DiarySync", "DiaryMarkdown", "CQREncode",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Release builds link the Swift runtime and Foundation (with ICU's data) statically:
            // every command then starts without loading and relocating a dozen shared libraries
            // (docs/BENCHMARKS.md has the start-up times). The flag is needed when compiling too,
            // so that `import Foundation` links the static libraries' dependencies
            // (_FoundationICU). It makes release links slower and the binary larger; debug and
            // test builds keep the shared libraries.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        // Helpers shared by every test target and the stress child: scratch directories, a
        // seeded generator, running a body against each store. Not part of the product.
        .target(
            name: "DiaryTestSupport",
            dependencies: ["DiaryVault", "DiaryStore", "DiaryCrypto"],
            path: "Tests/DiaryTestSupport"
        ),
        // A child process for the crash (SIGKILL) and multi-process tests of DiaryVault; it is
        // not part of the product.
        .executableTarget(
            name: "diary-vault-stress",
            dependencies: ["DiaryVault", "DiaryStore", "DiaryCrypto", "DiaryTestSupport"],
            path: "Tests/VaultStressChild"
        ),
        // The fuzzers' entry points: Fuzz/ runs them under libFuzzer, FuzzRegressionTests replays
        // their seeds. Under Tests/, with the other code that is not the product (no product
        // target depends on it), so its fixed key and scratch files never ship; it reaches the
        // parsers through `package` access, so they stay out of the modules' public API.
        .target(
            name: "DiaryFuzzing",
            dependencies: ["DiaryVault", "DiaryExchange", "DiaryCrypto", "DiaryMarkdown"],
            path: "Tests/DiaryFuzzing"
        ),
        // In-process benchmarks of the vault layer (Scripts/bench-* drive it); not in the product.
        .executableTarget(
            name: "diary-bench",
            dependencies: ["DiaryVault", "DiaryStore", "DiaryCrypto"],
            path: "Scripts/Bench"
        ),
        // Debian's libgfshare (libgfshare-dev), which the tests check diary's Shamir shares
        // against both ways; only DiaryCryptoTests links it, never the product.
        .systemLibrary(
            name: "CGFShare",
            path: "Tests/CGFShare",
            pkgConfig: "libgfshare",
            providers: [.apt(["libgfshare-dev"])]
        ),
        .testTarget(
            name: "DiaryCryptoTests",
            dependencies: ["DiaryCrypto", "DiaryTestSupport", "CGFShare"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "DiaryStoreTests",
            dependencies: [
                "DiaryStore", "DiaryCrypto", "DiaryTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "DiaryVaultTests",
            dependencies: [
                "DiaryVault", "DiaryStore", "DiaryCrypto", "DiaryTestSupport", "DiaryFuzzing",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "DiaryExchangeTests",
            dependencies: ["DiaryExchange", "DiaryVault", "DiaryStore", "DiaryCrypto", "DiaryTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "DiaryMarkdownTests", dependencies: ["DiaryMarkdown", "DiaryTestSupport", "DiaryFuzzing"]),
        .testTarget(name: "DiaryAgentTests", dependencies: ["DiaryAgent", "DiaryCrypto", "DiaryTestSupport"]),
        .testTarget(
            name: "DiarySyncTests",
            dependencies: ["DiarySync", "DiaryVault", "DiaryStore", "DiaryCrypto", "DiaryTestSupport"]
        ),
        .testTarget(
            name: "DiaryAppTests",
            dependencies: ["DiaryApp", "DiaryVault", "DiaryStore", "DiaryCrypto", "DiarySync", "DiaryTestSupport"]
        ),
        // A seeded model of sync: several machines, a folder and a git remote, random schedules
        // and a host that may turn hostile, with the invariants checked after every step.
        .testTarget(
            name: "DiarySyncModelTests",
            dependencies: ["DiarySync", "DiaryApp", "DiaryVault", "DiaryCrypto", "DiaryTestSupport"]
        ),
        .testTarget(
            name: "diaryTests",
            dependencies: [
                "DiaryVault", "DiaryStore", "DiaryCrypto", "DiarySync", "DiaryTestSupport",
                // `@testable import diary` for wording that needs no process (the stats lines
                // and the calendar heatmap in a given locale), from DiaryApp's values.
                "diary", "DiaryApp", "DiaryMarkdown",
                // To tamper with a SQLite vault as an attacker would.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
