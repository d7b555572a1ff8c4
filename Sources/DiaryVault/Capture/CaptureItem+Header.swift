import Foundation

/// An item's cleartext header read alone (docs/FORMAT.md §13.1): enough to learn its vault,
/// device and counter without reading, let alone opening, the rest.
extension CaptureItem {
    /// How many bytes the header takes: magic, version, vault id, device id, counter.
    public static let headerLength = prefixLength

    /// The vault, device and counter the first `headerLength` bytes of an item name, or nil when
    /// they are not an item's header of this format (the full reading then says why).
    public static func header(_ prefix: [UInt8]) -> (vaultID: UUID, deviceID: UUID, counter: UInt64)? {
        guard prefix.count >= prefixLength, Array(prefix[0..<8]) == magic, prefix[8] == version else { return nil }
        let counter = prefix[41..<49].reduce(0) { $0 << 8 | UInt64($1) }
        guard counter != 0, counter <= CaptureCounterSet.maximumCounter else { return nil }
        return (UUID(bytes: Array(prefix[9..<25])), UUID(bytes: Array(prefix[25..<41])), counter)
    }
}
