import XCTest
final class DiaryAgentPlaceholderTests: XCTestCase { func testPlaceholder() {} }
