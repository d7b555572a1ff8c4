/// Zip64 (APPNOTE 4.3.14–4.3.15, 4.5.3): the records an archive needs once it passes 4 GiB or
/// 65,535 members, as a Day One export with many photos and videos does. Every value is checked
/// as the 32-bit ones are; values past 2^62 are refused, so no sum of them can overflow.
extension ZipArchive {
    private static let zip64EndSignature = 0x0606_4B50
    private static let zip64LocatorSignature = 0x0706_4B50
    private static let zip64LocatorLength = 20
    private static let zip64EndLength = 56

    /// The member count, central directory size and offset from the zip64 end record, and
    /// where that record starts (the central directory must end by then); nil when there is no
    /// zip64 locator before the end record at `end`.
    static func zip64End(_ source: ZipSource, end: Int) throws(Malformed) -> (Int, Int, Int, Int)? {
        guard end >= zip64LocatorLength else { return nil }
        let locatorAt = end - zip64LocatorLength
        let locator = try source.window(locatorAt, count: zip64LocatorLength)
        guard locator.u32(locatorAt) == zip64LocatorSignature else { return nil }
        guard locator.u32(locatorAt + 4) == 0, locator.u32(locatorAt + 16) == 1,
            let recordAt = locator.u64(locatorAt + 8), recordAt <= locatorAt - zip64EndLength
        else { throw Malformed(detail: "damaged zip64 end of central directory locator") }
        // Only the fixed part is read: its extensible data (up to the locator) is not used.
        let record = try source.window(recordAt, count: zip64EndLength)
        guard record.u32(recordAt) == zip64EndSignature, let size = record.u64(recordAt + 4),
            recordAt + 12 + size == locatorAt, record.u32(recordAt + 16) == 0, record.u32(recordAt + 20) == 0,
            let count = record.u64(recordAt + 32), record.u64(recordAt + 24) == count,
            let directorySize = record.u64(recordAt + 40), let directoryOffset = record.u64(recordAt + 48)
        else { throw Malformed(detail: "damaged zip64 end of central directory record") }
        return (count, directorySize, directoryOffset, recordAt)
    }

    /// Replaces the 32-bit fields that say "see zip64" (all ones) with the 64-bit values of
    /// the central header's zip64 extra field (id 1), in APPNOTE's order.
    static func applyZip64Extra(
        _ bytes: ZipBytes, extra: Range<Int>, size: inout Int, compressed: inout Int, local: inout Int,
        disk: inout Int
    ) throws(Malformed) {
        let damaged = Malformed(detail: "damaged zip64 extra field")
        var field = extra.lowerBound
        while field + 4 <= extra.upperBound {
            guard let id = bytes.u16(field), let length = bytes.u16(field + 2),
                field + 4 + length <= extra.upperBound
            else { throw damaged }
            let values = (field + 4)..<(field + 4 + length)
            field = values.upperBound
            guard id == 1 else { continue }
            var at = values.lowerBound
            if size == 0xFFFF_FFFF { size = try next64(bytes, &at, values, damaged) }
            if compressed == 0xFFFF_FFFF { compressed = try next64(bytes, &at, values, damaged) }
            if local == 0xFFFF_FFFF { local = try next64(bytes, &at, values, damaged) }
            if disk == 0xFFFF {
                guard at + 4 <= values.upperBound, let value = bytes.u32(at) else { throw damaged }
                disk = value
            }
            return
        }
        throw Malformed(detail: "a member's zip64 sizes are missing")
    }

    private static func next64(_ bytes: ZipBytes, _ at: inout Int, _ values: Range<Int>, _ damaged: Malformed)
        throws(Malformed) -> Int
    {
        guard at + 8 <= values.upperBound, let value = bytes.u64(at) else { throw damaged }
        at += 8
        return value
    }
}
