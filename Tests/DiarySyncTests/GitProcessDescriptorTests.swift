import DiaryTestSupport
import Foundation
import XCTest

@testable import DiarySync

/// A long-lived process runs git thousands of times (the sync model does): no run may leave a
/// descriptor open.
final class GitProcessDescriptorTests: XCTestCase {
    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    func testRunningGitLeavesNoDescriptorOpen() throws {
        _ = try GitProcess.run(["--version"], in: nil)  // the first run's own setup (threads, sources)
        let before = openDescriptors()
        for _ in 0..<50 { _ = try GitProcess.run(["--version"], in: nil) }
        XCTAssertLessThanOrEqual(openDescriptors(), before + 2)
    }
}
