import Foundation

/// One rule for an item whose file name disagrees with its header, wherever an inbox is read
/// (the vault directory's, a folder remote's: docs/FORMAT.md §12.11, §13.3).
extension CaptureItem {
    /// Why an item whose file name is not the one its header gives (its device and counter) is
    /// refused: renamed, it would stand in the place of the item that name belongs to, so that
    /// one, when it comes, could not be written or would be taken for a copy.
    public static let misnamedReason = "its name is another item's"

    /// The outcome of the item `bytes` read from the file `name`: `.damaged` when its header
    /// names another item, nil when the name is its own or the header does not parse (the
    /// take-in then says what is wrong with it).
    public static func misnamed(_ bytes: [UInt8], fileName name: String) -> CaptureOutcome? {
        guard let header = try? CaptureItem(bytes), fileName(deviceID: header.deviceID, counter: header.counter) != name
        else { return nil }
        return .damaged(device: nil, reason: misnamedReason)
    }
}
