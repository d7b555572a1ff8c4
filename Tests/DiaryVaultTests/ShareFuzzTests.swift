import DiaryFuzzing
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// FuzzShare's committed seeds (`Fuzz/corpus/FuzzShare/`) are share files its entry point
/// accepts, and a quick in-process run of mutations through it never traps.
final class ShareFuzzTests: XCTestCase {
    private var seeds: [[UInt8]] {
        get throws {
            let dir = FuzzRegressionTests.corpus.appendingPathComponent("FuzzShare")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            XCTAssertEqual(names.count, 3)
            return try names.map { Array(try Data(contentsOf: dir.appendingPathComponent($0))) }
        }
    }

    func testTheCommittedSeedsAreSharesTheEntryPointAccepts() throws {
        for seed in try seeds {
            XCTAssertTrue(FuzzEntryPoints.share(seed))
            XCTAssertEqual(try RecoveryShareFile.read(seed).vaultID.uuidString, "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")
        }
    }

    /// Mutations of the seeds, the checks repaired by the entry point, reach the field checks
    /// and the re-reading without a trap.
    func testMutatedSeedsNeverTrap() throws {
        var generator = SeededGenerator(seed: SeededGenerator.announcedSeed("share fuzz"))
        let seeds = try seeds
        for _ in 0..<2000 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                let digit = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ-\n#u".utf8).randomElement(using: &generator)!
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = digit
                case 1: bytes.insert(digit, at: at)
                default: bytes.remove(at: at)
                }
            }
            FuzzEntryPoints.share(bytes)
        }
    }
}
