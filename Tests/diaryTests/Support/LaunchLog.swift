import Foundation
import XCTest

/// Counts which tests launch the `diary` binary: when `DIARY_TEST_LAUNCH_LOG` names a file, every
/// launch appends the running test's name to it, one line per launch (`Scripts/count-binary-tests`
/// reads it). Off, it costs one environment lookup.
///
/// The observer is registered at the first launch, so the test running then is not yet known by
/// name: its launches wait in `pending` until it finishes. Launches between tests (a sandbox's
/// `deinit` after its test) are not a test's and are dropped.
final class LaunchLog: NSObject, XCTestObservation, @unchecked Sendable {
    private static let path = ProcessInfo.processInfo.environment["DIARY_TEST_LAUNCH_LOG"].flatMap {
        $0.isEmpty ? nil : $0
    }
    private static let shared: LaunchLog? = path.map { LaunchLog(path: $0) }

    private let path: String
    private let lock = NSLock()
    /// nil between tests; "" while the test that was running at registration is still unnamed.
    private var current: String? = ""
    private var pending = 0

    private init(path: String) {
        self.path = path
        super.init()
        XCTestObservationCenter.shared.addTestObserver(self)
    }

    /// Notes one launch of the binary by the running test.
    static func record() {
        guard let log = shared else { return }
        log.lock.withLock {
            switch log.current {
            case nil: break
            case ""?: log.pending += 1
            case let name?: log.append(name, times: 1)
            }
        }
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        lock.withLock { current = testCase.name }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.withLock {
            append(testCase.name, times: pending)
            pending = 0
            current = nil
        }
    }

    /// Appends `name` as `times` lines; O_APPEND keeps lines whole when parallel test processes share the file.
    private func append(_ name: String, times: Int) {
        guard times > 0 else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(String(repeating: name + "\n", count: times).utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
