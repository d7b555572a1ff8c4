import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange

/// Crafted and randomly mutated import files, read in-process through `Importer.read`, the
/// function `diary import` calls. Each must import or throw an `ExchangeError` (status 67);
/// a trap would kill the test process, which fails the run.
final class ExchangeHostileInputTests: ExchangeTestCase {
    func testTheSampleDayOneZipImports() throws {
        let url = try fixture("sample.zip", bytes: HostileInput.dayOneZip)
        let batch = try Importer.read(.dayone, from: [url])
        XCTAssertEqual(batch.entries.count, 2)
        XCTAssertEqual(batch.mediaReferencesDropped, 1)
        XCTAssertEqual(batch.entries.first?.tags, ["walk", "winter"])
    }

    /// FuzzDayOneZip's committed seeds are valid exports, so the fuzzer starts deep in the reader.
    func testCommittedFuzzSeedsImport() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/FuzzDayOneZip")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let batch = try Importer.read(.dayone, from: [dir.appendingPathComponent(name)])
            XCTAssertFalse(batch.entries.isEmpty, name)
        }
    }

    /// The end record's central directory offset set to 0x7fff0000 crashed the zip library
    /// used before (`Range requires lowerBound <= upperBound`).
    func testCentralDirectoryOffsetPastTheEndIsRefusedNotACrash() throws {
        var zip = HostileInput.dayOneZip
        let end = zip.count - 22
        XCTAssertEqual(Array(zip[end..<(end + 4)]), [0x50, 0x4B, 0x05, 0x06])
        zip.replaceSubrange((end + 16)..<(end + 20), with: [0x00, 0x00, 0xFF, 0x7F])
        let url = try fixture("crafted.zip", bytes: zip)
        XCTAssertThrowsError(try Importer.read(.dayone, from: [url])) { error in
            XCTAssertTrue("\(error)".contains("not a valid zip archive"), "\(error)")
            XCTAssertTrue("\(error)".contains(url.path), "\(error)")
        }
    }

    /// A member claiming 256 MiB from 300 deflated bytes would have its output buffer allocated
    /// at that size; deflate cannot expand more than 1032 to 1, so the claim is refused first.
    func testDeflatedMemberClaimingMoreThanDeflateCanProduceIsRefused() throws {
        var zip = HostileInput.dayOneZip
        let end = zip.count - 22
        let central = Int(zip[end + 16]) | Int(zip[end + 17]) << 8
        zip.replaceSubrange((central + 24)..<(central + 28), with: [0xFF, 0xFF, 0xFF, 0x0F])
        let url = try fixture("liar.zip", bytes: zip)
        XCTAssertThrowsExchangeError(
            .malformedArchive(file: url.path, detail: "member Journal.json claims more bytes than its data can hold"),
            try Importer.read(.dayone, from: [url]))
    }

    func testOverlappingMembersAreRefused() throws {
        // A second central header pointing at the first member's local header: the trick that
        // lets a zip bomb inflate one stream many times.
        let zip = StoredZip.archive([("a.json", Array("{}".utf8)), ("b.json", Array("{}".utf8))])
        let end = zip.count - 22
        let central = Int(zip[end + 16]) | Int(zip[end + 17]) << 8
        let second = central + 46 + "a.json".utf8.count
        var crafted = zip
        crafted.replaceSubrange((second + 42)..<(second + 46), with: [0, 0, 0, 0])
        crafted.replaceSubrange((second + 46)..<(second + 52), with: Array("a.json".utf8))
        XCTAssertThrowsError(try ZipArchive(crafted)) { error in
            XCTAssertEqual((error as? ZipArchive.Malformed)?.detail, "members a.json and a.json overlap")
        }
    }

    func testTenThousandMutatedDayOneZipsImportOrAreRefused() throws {
        try mutate(HostileInput.dayOneZip, format: .dayone, name: "mutated.zip", what: "Day One zip mutations")
    }

    func testTenThousandMutatedJrnlFilesImportOrAreRefused() throws {
        try mutate(HostileInput.jrnlJSON, format: .jrnl, name: "mutated.json", what: "jrnl mutations")
    }

    private func mutate(_ valid: [UInt8], format: ImportFormat, name: String, what: String) throws {
        var g = SeededGenerator(seed: SeededGenerator.announcedSeed(what))
        let url = path(name)
        var refused = 0
        for round in 0..<10_000 {
            let bytes = HostileInput.mutate(valid, using: &g)
            try Data(bytes).write(to: url)
            do {
                _ = try Importer.read(format, from: [url], timeZone: utc)
            } catch let error as ExchangeError {
                refused += 1
                // Messages name the file, never its contents.
                XCTAssertTrue(error.description.hasPrefix(url.path), "round \(round): \(error)")
            } catch {
                XCTFail("round \(round): not an import refusal: \(error)")
            }
        }
        print("\(what): \(refused) of 10000 refused, the rest imported")
    }
}
