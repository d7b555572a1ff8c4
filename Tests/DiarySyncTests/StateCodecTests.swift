import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// The sealed sync state reads back as written, whatever it holds.
final class StateCodecTests: XCTestCase {
    func testStateWithEveryFieldReadsBackAsWritten() throws {
        var main = SyncMain(machine: UUID(), machineName: "laptop")
        main.lamport = 17
        main.remoteCommit = String(repeating: "ab", count: 20)
        main.adoptedKeyChange = KeyChangeID(generation: 2, lamport: 9, machine: UUID(), seq: 4)
        main.keys = [(1, try SecretBytes(randomCount: 32)), (2, try SecretBytes(randomCount: 32))]
        // A page sync wrote but must look at again is recorded as `unknownTag` (an empty tag
        // here once shifted every later field and made the state unreadable).
        main.indexTags = [[UInt8](repeating: 0, count: 16), StateCodec.unknownTag, [UInt8](repeating: 3, count: 16)]
        let other = UUID()
        main.logs[other] = LogState(
            name: "desktop", seen: 2,
            records: [RecordSeen(hash: [UInt8](repeating: 5, count: RecordCodec.hashLength),
                                 stat: FileStamp(size: 900, inode: 12, modified: -3, changed: 7))])
        main.conflicts = [UUID()]
        main.pendingKeyChange = KeyChange(headers: [.files: [1, 2, 3]], retired: [(1, try SecretBytes(randomCount: 32))])

        let read = try StateCodec.decode(StateCodec.encode(main))
        XCTAssertEqual(read.machine, main.machine)
        XCTAssertEqual(read.lamport, 17)
        XCTAssertEqual(read.remoteCommit, main.remoteCommit)
        XCTAssertEqual(read.adoptedKeyChange, main.adoptedKeyChange)
        XCTAssertEqual(read.keys.map(\.generation), [1, 2])
        XCTAssertEqual(read.indexTags, main.indexTags)
        XCTAssertEqual(read.logs, main.logs)
        XCTAssertEqual(read.conflicts, main.conflicts)
        XCTAssertEqual(read.pendingKeyChange?.headers, main.pendingKeyChange?.headers)
        XCTAssertEqual(read.pendingKeyChange?.retired.map(\.generation), [1])
    }
}
