import Foundation

/// The remote's capture inbox: `inbox/<device>-<counter>.dcap`, items that capture devices
/// drop into a folder remote, and `inbox/rejected/`, where items that were refused are moved
/// (docs/FORMAT.md §12.1). Unlike every other file of the remote these have many writers (the
/// devices) and are removed once taken in: they are not part of the signed history.
extension RemoteLayout {
    static let inboxDirectory = "inbox"
    static let rejectedDirectory = "inbox/rejected"
    static let itemExtension = ".dcap"

    /// An item file's name read back: 32 lowercase hex digits (the device), `-`, 20 decimal
    /// digits (its counter, from 1), `.dcap`; nil for any other name.
    static func item(fromName name: String) -> (device: UUID, counter: UInt64)? {
        guard name.hasSuffix(itemExtension) else { return nil }
        let stem = name.dropLast(itemExtension.count).split(separator: "-", omittingEmptySubsequences: false)
        guard stem.count == 2, let device = machineID(fromHex: String(stem[0])), stem[1].count == 20,
            stem[1].allSatisfy({ $0.isASCII && $0.isNumber }), let counter = UInt64(stem[1]), counter > 0
        else { return nil }
        return (device, counter)
    }
}
