import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore

/// The files store's scan parses entry file names itself; it must accept exactly the names
/// `FileStore.entryID(fromFileName:)` accepts, with the same id.
final class StoreEntryScanTests: XCTestCase {
    func testScanNameParserAgreesWithTheStoreOnGeneratedNames() {
        var rng = SeededGenerator(seed: 31)
        let alphabet = Array("0123456789abcdefABCDEF-xg .é".unicodeScalars)
        for round in 0..<20_000 {
            var name = UUID().uuidString.lowercased()
            switch round % 4 {
            case 0: break
            case 1:  // one character replaced
                var chars = Array(name.unicodeScalars)
                chars[Int(rng.next() % 36)] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                name = String(String.UnicodeScalarView(chars))
            case 2: name = round % 8 == 2 ? String(name.dropLast()) : name + "0"
            default: name = UUID().uuidString  // uppercase: not canonical
            }
            XCTAssertEqual(FileReader.canonicalEntryID(name), FileStore.entryID(fromFileName: name), "name \(name)")
        }
        let id = UUID()
        XCTAssertEqual(FileReader.canonicalEntryID(FileStore.fileName(for: id)), id)
        XCTAssertNil(FileReader.canonicalEntryID(""))
        XCTAssertNil(FileReader.canonicalEntryID(".tmp-" + FileStore.fileName(for: id).dropFirst(5)))
    }
}
