import XCTest
final class DiaryVaultPlaceholderTests: XCTestCase { func testPlaceholder() {} }
