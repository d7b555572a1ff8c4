import XCTest
@testable import DiaryCrypto
final class SmokeTests: XCTestCase { func testSmoke() throws { let k = try SecretBytes(randomCount: 32); let b = try XChaCha20Poly1305.seal([1,2,3], key: k, associatedData: []); XCTAssertEqual(try XChaCha20Poly1305.open(b, key: k, associatedData: []), [1,2,3]) } }
