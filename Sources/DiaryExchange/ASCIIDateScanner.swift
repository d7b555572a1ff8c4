/// `ExchangeDates.parse`'s grammar read over ASCII bytes: the same forms, the same answers as
/// `ExchangeDates.characterFields` for text that is all ASCII (a test compares the two).
///
/// Spaces and tabs are trimmed at both ends, as `CharacterSet.whitespaces` does for ASCII.
struct ASCIIDateScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at: Int
    private let end: Int

    /// The fields of the date in `bytes` (ASCII), or nil when it is not in one of the forms.
    static func fields(in bytes: UnsafeBufferPointer<UInt8>) -> ExchangeDates.DateFields? {
        var scanner = ASCIIDateScanner(bytes)
        return scanner.date()
    }

    static func fields(in bytes: [UInt8]) -> ExchangeDates.DateFields? {
        bytes.withUnsafeBufferPointer { fields(in: $0) }
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var first = 0
        var last = bytes.count
        while first < last, Self.isSpace(bytes[first]) { first += 1 }
        while last > first, Self.isSpace(bytes[last - 1]) { last -= 1 }
        at = first
        end = last
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private mutating func date() -> ExchangeDates.DateFields? {
        var fields = ExchangeDates.DateFields()
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2) else { return nil }
        (fields.year, fields.month, fields.day) = (year, month, day)
        if take("T") || take(" ") {
            guard let hour = digits(2), take(":"), let minute = digits(2) else { return nil }
            (fields.hour, fields.minute) = (hour, minute)
            if take(":") {
                guard let second = digits(2) else { return nil }
                fields.second = second
                if take(".") || take(",") {
                    guard let millisecond = fraction() else { return nil }
                    fields.millisecond = millisecond
                }
            }
            _ = take(" ")
            if take("Z") || take("z") {
                fields.offsetSeconds = 0
            } else if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                at += 1
                guard let oh = digits(2) else { return nil }
                _ = take(":")
                guard let om = digits(2), oh < 24, om < 60 else { return nil }
                fields.offsetSeconds = (sign == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60)
            }
        }
        return at == end ? fields : nil
    }

    private func peek() -> UInt8? { at < end ? bytes[at] : nil }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        at += 1
        return true
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// Exactly `count` digits.
    private mutating func digits(_ count: Int) -> Int? {
        guard end - at >= count else { return nil }
        var value = 0
        for i in at..<at + count {
            guard let d = Self.digit(bytes[i]) else { return nil }
            value = value * 10 + d
        }
        at += count
        return value
    }

    /// One or more digits of a second's fraction, as milliseconds (finer digits dropped).
    private mutating func fraction() -> Int? {
        var millisecond = 0
        var count = 0
        while let byte = peek(), let d = Self.digit(byte) {
            if count < 3 { millisecond = millisecond * 10 + d }
            count += 1
            at += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { millisecond *= 10 }
        return millisecond
    }
}
