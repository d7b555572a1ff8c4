import XCTest
final class diaryPlaceholderTests: XCTestCase { func testPlaceholder() {} }
