import Foundation

/// The names of a vault's capture inbox (docs/FORMAT.md §2, §13): `inbox/` beside the store,
/// where `diary capture` drops sealed items, and `inbox/rejected/`, where items that were
/// refused are moved aside. Both are tolerated in a vault directory of either store.
public enum InboxLayout {
    public static let directoryName = "inbox"
    public static let rejectedName = "rejected"
    public static let itemExtension = "dcap"

    /// `<device id, 32 lowercase hex>-<counter, 20 digits>.dcap`, the only name an item has.
    public static func isItemName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 32 + 1 + 20 + 1 + itemExtension.utf8.count, name.hasSuffix("." + itemExtension),
            bytes[32] == UInt8(ascii: "-")
        else { return false }
        let isHex = { (b: UInt8) in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
        }
        let isDigit = { (b: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
        return bytes[0..<32].allSatisfy(isHex) && bytes[33..<53].allSatisfy(isDigit)
    }

    /// The item name for a device (its 16 id bytes as hex) and counter.
    public static func itemName(deviceHex: String, counter: UInt64) -> String {
        let digits = String(counter)
        return deviceHex + "-" + String(repeating: "0", count: 20 - digits.count) + digits + "." + itemExtension
    }
}
