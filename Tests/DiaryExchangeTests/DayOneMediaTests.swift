import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange

/// Day One's media found in its zip (Resources/DayOne/generate.py wrote media.zip with Python's
/// zipfile) and each member streamed out of the file in flat memory.
final class DayOneMediaTests: ExchangeTestCase {
    static let photo = "0123456789abcdef0123456789abcdef"
    static let heic = "44444444444444444444444444444444"

    func mediaZip() throws -> URL {
        let directory = try XCTUnwrap(Bundle.module.url(forResource: "Resources", withExtension: nil))
        return directory.appendingPathComponent("DayOne/media.zip")
    }

    /// The member bytes generate.py wrote: (i * k) % 251.
    static func pattern(_ n: Int, _ k: Int) -> [UInt8] { (0..<n).map { UInt8(($0 * k) % 251) } }

    func readAll(_ archive: ImportArchive, _ path: String, buffer size: Int) throws -> [UInt8] {
        var reader = try archive.reader(for: path)
        var buffer = [UInt8](repeating: 0, count: size)
        var out: [UInt8] = []
        while true {
            let n = try reader.read(&buffer)
            if n == 0 { return out }
            out += buffer[0..<n]
        }
    }

    func testEntriesNameTheirMediaAndListWhereEachFileIs() throws {
        let url = try mediaZip()
        let batch = try Importer.read(.dayone, from: [url], attachments: true)
        XCTAssertEqual(batch.entries.count, 3)
        let (first, plain, second) = (batch.entries[0], batch.entries[1], batch.entries[2])
        XCTAssertEqual(first.text, "Palace!\n[photo: photo-1.jpeg]\nthen\n[video: video-1.mov]\nend")
        XCTAssertEqual(
            batch.attachments[first.id],
            [
                ImportAttachment(
                    location: .zipMember(archive: url, path: "photos/\(Self.photo).jpeg"), name: "photo-1.jpeg",
                    mediaType: "image/jpeg"),
                ImportAttachment(
                    location: .zipMember(archive: url, path: "videos/" + String(repeating: "1", count: 32) + ".mov"),
                    name: "video-1.mov", mediaType: "video/quicktime"),
            ])
        XCTAssertEqual(plain.text, "no media (none)")
        XCTAssertNil(batch.attachments[plain.id])
        // The photo whose file is missing keeps today's placeholder; the listed HEIC without a
        // type is found by its md5; a md5 that is a path and an object that is a string are not.
        XCTAssertEqual(second.text, "[audio recording: audio-1.m4a] [pdf: document-1.pdf] [photo not imported]")
        XCTAssertEqual(batch.attachments[second.id]?.map(\.name), ["photo-1.heic", "audio-1.m4a", "document-1.pdf"])
        XCTAssertEqual(
            batch.attachments[second.id]?.map(\.mediaType), ["image/heic", "audio/mp4", "application/pdf"])
        XCTAssertEqual(
            batch.attachments[second.id]?.first?.location, .zipMember(archive: url, path: "photos/\(Self.heic).heic"))
        XCTAssertEqual(batch.mediaReferencesDropped, 1)
        XCTAssertEqual(batch.attachmentsMissing, 3)
    }

    func testWithoutAttachmentsTheImportIsAsBefore() throws {
        let url = try mediaZip()
        let before = try Importer.read(.dayone, from: [url])
        XCTAssertEqual(
            before.entries.map(\.text),
            [
                "Palace!\n[photo not imported]\nthen\n[video not imported]\nend", "no media (none)",
                "[audio recording not imported] [pdf not imported] [photo not imported]",
            ])
        XCTAssertEqual(before.mediaReferencesDropped, 5)
        XCTAssertEqual(before.attachments, [:])
        XCTAssertEqual(before.attachmentsMissing, 0)
        let with = try Importer.read(.dayone, from: [url], attachments: true)
        XCTAssertEqual(with.entries[1].text, before.entries[1].text)
        XCTAssertEqual(with.entries.map(\.source), before.entries.map(\.source))
    }

    func testEachMemberStreamsByteForByteWhateverTheBufferSize() throws {
        let archive = try ImportArchive(url: try mediaZip())
        let photo = try JPEGMetadataStripperTests.resource("gps-all.jpg")
        let members: [(String, [UInt8])] = [
            ("photos/\(Self.photo).jpeg", photo),
            ("videos/" + String(repeating: "1", count: 32) + ".mov", Self.pattern(20000, 7)),
            ("audios/" + String(repeating: "2", count: 32) + ".m4a", Self.pattern(3 << 20, 3)),
            ("pdfs/" + String(repeating: "3", count: 32) + ".pdf", Array("%PDF-1.4\n".utf8) + Self.pattern(1000, 5)),
        ]
        for (path, expected) in members {
            XCTAssertEqual(archive.size(of: path), expected.count, path)
            for size in [7, 4096, 65536, 300_000] {
                XCTAssertEqual(try readAll(archive, path, buffer: size), expected, "\(path) \(size)")
            }
        }
        XCTAssertEqual(try readAll(archive, "photos/\(Self.photo).jpeg", buffer: 1), photo)
        XCTAssertThrowsExchangeError(
            .malformedArchive(file: archive.url.path, detail: "no member photos/nothing.jpeg"),
            try archive.reader(for: "photos/nothing.jpeg"))
    }

    /// A deflated member with bytes changed anywhere in its data is refused (by zlib or by its
    /// CRC-32 and size at the end), never a trap, and never read to its end as if it were good.
    func testDamagedMembersAreRefused() throws {
        let good = [UInt8](try Data(contentsOf: try mediaZip()))
        let member = try XCTUnwrap(
            try ZipArchive(good).members.first { $0.path == "photos/\(Self.photo).jpeg" })
        var random = SeededGenerator(seed: SeededGenerator.announcedSeed("zip member damage"))
        for round in 0..<60 {
            var bad = good
            // Not the last byte: its padding bits after the final block are not data.
            let at = Int.random(in: member.data.lowerBound..<(member.data.upperBound - 1), using: &random)
            bad[at] ^= UInt8.random(in: 1...255, using: &random)
            let url = try fixture("damaged-\(round).zip", bytes: bad)
            let archive = try ImportArchive(url: url)
            XCTAssertThrowsError(try readAll(archive, member.path, buffer: 1000), "byte \(at)") { error in
                guard case .malformedArchive(let file, _) = error as? ExchangeError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(file, url.path)
            }
        }
    }

    /// Mutated exports (awkward sizes and offsets, flipped bytes, cuts) either import with
    /// every listed member streamed to its end, or are refused with an error naming the file.
    func testMutatedExportsStreamOrAreRefusedNeverTrap() throws {
        let good = [UInt8](try Data(contentsOf: try mediaZip()))
        var random = SeededGenerator(seed: SeededGenerator.announcedSeed("Day One media zip mutations"))
        let url = path("mutated-media.zip")
        var streamed = 0
        for round in 0..<300 {
            try Data(HostileInput.mutate(good, using: &random)).write(to: url)
            do {
                let batch = try Importer.read(.dayone, from: [url], attachments: true)
                let archive = try ImportArchive(url: url)
                for case .zipMember(_, let path) in batch.attachments.values.joined().map(\.location) {
                    _ = try readAll(archive, path, buffer: 65536)
                    streamed += 1
                }
            } catch let error as ExchangeError {
                XCTAssertTrue(error.description.hasPrefix(url.path), "round \(round): \(error)")
            }
        }
        print("Day One media zip mutations: \(streamed) members streamed whole")
    }

    func testAStoredMemberWhoseBytesChangedFailsAtItsEnd() throws {
        var zip = StoredZip.archive([("videos/a.mov", Self.pattern(5000, 7))])
        zip[30 + 12 + 100] ^= 1
        let archive = try ImportArchive(url: try fixture("stored.zip", bytes: zip))
        XCTAssertThrowsExchangeError(
            .malformedArchive(file: archive.url.path, detail: "member videos/a.mov is damaged"),
            try readAll(archive, "videos/a.mov", buffer: 64))
    }

    func testAnArchiveCutShortIsRefusedWhenOpened() throws {
        let good = [UInt8](try Data(contentsOf: try mediaZip()))
        let url = try fixture("short.zip", bytes: Array(good.prefix(good.count - 30)))
        XCTAssertThrowsError(try ImportArchive(url: url)) { error in
            guard case .malformedArchive = error as? ExchangeError else { return XCTFail("\(error)") }
        }
    }
}
