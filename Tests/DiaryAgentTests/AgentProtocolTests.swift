import DiaryCrypto
import Foundation
import XCTest

@testable import DiaryAgent

/// The line protocol without sockets: parsing requests and replies, and refusing what is malformed.
final class AgentProtocolTests: XCTestCase {
    private func parseRequest(_ text: String) throws -> AgentRequest {
        try Array(text.utf8).withUnsafeBufferPointer { try AgentRequest.parse($0) }
    }

    private func parseReply(_ bytes: [UInt8]) throws -> AgentReply {
        var line = bytes
        if line.last == UInt8(ascii: "\n") { line.removeLast() }
        return try line.withUnsafeBufferPointer { try AgentReply.parse($0) }
    }

    private func assertViolation(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parseRequest(text), text, file: file, line: line) { error in
            guard case AgentError.protocolViolation = error else {
                return XCTFail("\(text): unexpected \(error)", file: file, line: line)
            }
        }
    }

    func testSimpleRequestsParse() throws {
        guard case .get = try parseRequest(#"{"v":1,"op":"get"}"#) else { return XCTFail("get") }
        guard case .status = try parseRequest(#" { "op" : "status" , "v" : 1 } "#) else { return XCTFail("status") }
        guard case .lock = try parseRequest(#"{"v":1,"op":"lock","extra":null}"#) else { return XCTFail("lock") }
    }

    func testSetRequestDecodesTheKeyIntoSecretBytes() throws {
        let key = try makeKey(7)
        let request = try parseRequest(#"{"v":1,"op":"set","generation":42,"key":"\#(hex(of: key))"}"#)
        guard case .set(let parsed, let generation) = request else { return XCTFail("not a set") }
        XCTAssertEqual(generation, 42)
        XCTAssertTrue(parsed.constantTimeEquals(key))
    }

    func testEncodedSetRequestRoundTrips() throws {
        let key = try makeKey(9)
        let line = AgentRequest.set(key: key, generation: 3).encoded()
        XCTAssertEqual(line.bytes.last, UInt8(ascii: "\n"))
        let text = String(decoding: line.bytes.dropLast(), as: UTF8.self)
        guard case .set(let parsed, 3) = try parseRequest(text) else { return XCTFail("not a set") }
        XCTAssertEqual(parsed, key)
    }

    func testWrongOrMissingVersionIsRefused() {
        assertViolation(#"{"v":2,"op":"get"}"#)
        assertViolation(#"{"v":"1","op":"get"}"#)
        assertViolation(#"{"v":1.0,"op":"get"}"#)
        assertViolation(#"{"op":"get"}"#)
    }

    func testMalformedJSONIsRefused() {
        for text in [
            "", "hello", "{", #"{"v":1,"op":"get"} x"#, #"{"v":1,"op":"get","v":1}"#,
            #"{"v":1,"op":{"x":1}}"#, #"{"v":1,"op":["get"]}"#, #"{"v":01,"op":"get"}"#,
            #"{"v":1,"op":"get",}"#, "[1]", #"{"v":1,"op":"g\#u{01}et"}"#,
        ] {
            assertViolation(text)
        }
    }

    func testUnknownOrMissingOpIsRefused() {
        assertViolation(#"{"v":1,"op":"fly"}"#)
        assertViolation(#"{"v":1}"#)
        assertViolation(#"{"v":1,"op":7}"#)
    }

    func testSetWithNonCanonicalKeyOrGenerationIsRefused() throws {
        let good = hex(of: try makeKey(1))
        assertViolation(#"{"v":1,"op":"set","generation":1,"key":"\#(good.uppercased())"}"#)
        assertViolation(#"{"v":1,"op":"set","generation":1,"key":"\#(good.dropLast())"}"#)
        assertViolation(#"{"v":1,"op":"set","generation":1,"key":""}"#)
        assertViolation(#"{"v":1,"op":"set","generation":1,"key":"\u0061\#(good.dropFirst())"}"#)
        assertViolation(#"{"v":1,"op":"set","generation":-1,"key":"\#(good)"}"#)
        assertViolation(#"{"v":1,"op":"set","generation":4294967296,"key":"\#(good)"}"#)
        assertViolation(#"{"v":1,"op":"set","key":"\#(good)"}"#)
    }

    func testSuccessReplyWithKeyRoundTrips() throws {
        let key = try makeKey(200)
        let status = AgentStatus(vaultID: UUID(), generation: 5, idleRemaining: 12.5, maxRemaining: 3600)
        let line = AgentReply.success(status: status, key: key)
        let text = String(decoding: line.bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"{"v":1,"ok":true,"key":"\#(hex(of: key))""#), text)
        let reply = try parseReply(line.bytes)
        XCTAssertEqual(reply.status, status)
        XCTAssertEqual(reply.key, key)
    }

    func testStatusReplyCarriesNoKey() throws {
        let status = AgentStatus(vaultID: UUID(), generation: 1, idleRemaining: 1, maxRemaining: 2)
        let line = AgentReply.success(status: status)
        XCTAssertFalse(String(decoding: line.bytes, as: UTF8.self).contains("key"))
        XCTAssertNil(try parseReply(line.bytes).key)
    }

    /// The vault's path rides in the status, escaped as JSON; a reply without it (an agent of
    /// an older diary) still parses, and an old client ignores it (unknown fields are).
    func testTheVaultPathRoundTripsAndIsOptional() throws {
        let path = "/home/me/\"quoted\"\\dir\nwith\ta ✓"
        let status = AgentStatus(vaultID: UUID(), generation: 3, idleRemaining: 5, maxRemaining: 9, vaultPath: path)
        XCTAssertEqual(try parseReply(AgentReply.success(status: status).bytes).status?.vaultPath, path)
        XCTAssertEqual(try parseReply(AgentReply.success(status: status, key: try makeKey(1)).bytes).status, status)
        let older =
            #"{"v":1,"ok":true,"generation":1,"vault":"\#(UUID().uuidString)","idle_remaining":1,"max_remaining":2}"#
        let parsed = try XCTUnwrap(try parseReply(Array(older.utf8)).status)
        XCTAssertNil(parsed.vaultPath)
        XCTAssertThrowsError(try parseReply(Array(older.replacingOccurrences(of: "}", with: ",\"path\":7}").utf8)))
    }

    /// A path whose reply would not fit in a line is not reported (the reply would be refused).
    func testAPathTooLongForALineIsLeftOut() {
        let fits = "/" + String(repeating: "a", count: 3000)
        XCTAssertEqual(AgentReply.reportable(path: fits, keyCount: 64), fits)
        XCTAssertNil(AgentReply.reportable(path: "/" + String(repeating: "a", count: 4000), keyCount: 32))
        // Escapes count: 700 control characters take six bytes each.
        XCTAssertNil(AgentReply.reportable(path: "/" + String(repeating: "\u{1}", count: 700), keyCount: 32))
        XCTAssertNil(AgentReply.reportable(path: nil, keyCount: 32))
    }

    func testFailureReplyBecomesRefusedWithTheMessageIntact() {
        let message = "odd \"quoted\" message\twith \\ and a long tail " + String(repeating: "x", count: 600)
        XCTAssertThrowsError(try parseReply(AgentReply.failure(message).bytes)) { error in
            XCTAssertEqual(error as? AgentError, .refused(message))
        }
    }

    func testReplyOfAnotherVersionIsRefused() {
        XCTAssertThrowsError(try parseReply(Array(#"{"v":2,"ok":true}"#.utf8))) { error in
            guard case AgentError.protocolViolation = error else { return XCTFail("\(error)") }
        }
    }

    func testKeyHandoffMovesRawBytesThroughAPipe() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        let key = try makeKey(33)
        try KeyHandoff.write(key, to: ends[1])
        close(ends[1])
        XCTAssertEqual(try KeyHandoff.read(from: ends[0], byteCount: 32), key)
    }

    func testKeyHandoffRefusesAShortKey() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        try KeyHandoff.write(try makeKey(1, count: 10), to: ends[1])
        close(ends[1])
        XCTAssertThrowsError(try KeyHandoff.read(from: ends[0], byteCount: 32)) { error in
            XCTAssertEqual(error as? AgentError, .invalidKeyLength(10))
        }
    }

    /// The vault's path follows the key through the same pipe, byte for byte; a path cut short
    /// or of an impossible length is refused.
    func testTheVaultPathFollowsTheKeyThroughThePipe() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        let key = try makeKey(33)
        let path = "/home/me/Tagebuch ✓"
        try KeyHandoff.write(key, to: ends[1])
        try KeyHandoff.write(path: path, to: ends[1])
        try KeyHandoff.write(path: "/cut", to: ends[1])
        close(ends[1])
        XCTAssertEqual(try KeyHandoff.read(from: ends[0], byteCount: 32), key)
        XCTAssertEqual(try KeyHandoff.readPath(from: ends[0], byteCount: path.utf8.count), path)
        XCTAssertThrowsError(try KeyHandoff.readPath(from: ends[0], byteCount: 10))
        for impossible in [0, -1, KeyHandoff.maximumPathBytes + 1] {
            XCTAssertThrowsError(try KeyHandoff.readPath(from: ends[0], byteCount: impossible), "\(impossible)")
        }
    }
}
