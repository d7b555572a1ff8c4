import DiaryVault
import Foundation

/// Two machines that each took in items of one capture device change only the counters its
/// record lists (docs/FORMAT.md §12.11): not a conflict for a person to settle. When every head
/// of a conflict is a record of the same enrolment (name, enrolment time, device key and inbox
/// key equal), sync replaces them by one merged record: every counter either took in, and the
/// earliest revocation (`CaptureDeviceRecord.merged`). Copies whose union would need more
/// counter intervals than a record may store (§7.7) stay a conflict, never a record no reader accepts.
///
/// Like `PromptMemoryMerge`, the merge depends only on the heads' contents, so two machines
/// that merge the same heads make the same bytes: one version, not a new conflict.
enum CaptureDeviceMerge {
    static func merged(_ heads: [Head]) -> Entry? {
        let records = heads.compactMap { $0.content?.captureDevice }
        guard records.count == heads.count, !records.isEmpty else { return nil }
        return CaptureDeviceRecord.merged(records)?.entry
    }
}
