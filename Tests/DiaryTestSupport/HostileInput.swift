import Foundation

/// Hostile variants of valid import files, for the tests that feed them to `diary import`
/// in-process and through the binary.
public enum HostileInput {
    /// A small Day One export as Day One's zip holds it: `Journal.json` deflated, a directory
    /// entry and a stored photo (written by Python's `zipfile`, so not by the reader's author).
    public static let dayOneZip: [UInt8] = Array(
        Data(
            base64Encoded: [
                "UEsDBBQAAAAIAAAAMlc8A7J5JwEAAOoBAAAMAAAASm91cm5hbC5qc29uhZA9T8MwEIb3/ArjCaSmtZPmc8vnxoCUiTaDRY5iQWzJ",
                "uRRQ1f+O3VIJFSQ8+c6PT/e8B4/QEVAMAgXNycEjhO7BTFIrW1K+ZNQjx4WlQKGRMNnuxkIOJHSe5eCwgpdBFdbrJmpjlvA0yMJi",
                "XUZVXCdN2maMLk74kwGBdnItENy3gAWhzzKfRx1nechyxh6/0VEP8lnC8AuNO5Za7geK8IEOuddGSbUj7+LtdbtVrdETEq0IvgDZ",
                "GTFNS3Kz6W8H8akV+KMerVG+WhVldXeZJHYXP1u5OecHe5cKwVBX9Gd2QmEMOHs0M9iWC+kqFtbyJqjDykZRxFmSpkkWF1G5tlEF",
                "DW//jSXpAp6z6A/XZg8n1609PkEQVvhhloDLK5XebeaR3jt+AVBLAwQUAAAAAAAAADJXAAAAAAAAAAAAAAAABwAAAHBob3Rvcy9Q",
                "SwMEFAAAAAAAAAAyV+wVs+AMAAAADAAAABAAAABwaG90b3MvMGExYi5qcGVn/9j/4GZha2VqcGVnUEsBAhQDFAAAAAgAAAAyVzwD",
                "snknAQAA6gEAAAwAAAAAAAAAAAAAAIABAAAAAEpvdXJuYWwuanNvblBLAQIUAxQAAAAAAAAAMlcAAAAAAAAAAAAAAAAHAAAAAAAA",
                "AAAAAACAAVEBAABwaG90b3MvUEsBAhQDFAAAAAAAAAAyV+wVs+AMAAAADAAAABAAAAAAAAAAAAAAAIABdgEAAHBob3Rvcy8wYTFi",
                "LmpwZWdQSwUGAAAAAAMAAwCtAAAAsAEAAAAA",
            ].joined())!)

    /// A small `jrnl --export json`.
    public static let jrnlJSON: [UInt8] = Array(
        #"""
        {"tags": {"@walk": 1, "@work": 1},
         "entries": [
          {"title": "Morning walk", "body": "Frost on the grass.\nSecond line.", "date": "2023-09-15",
           "time": "10:30", "tags": ["@walk"], "starred": true},
          {"title": "Standup", "body": "", "date": "2024-02-29", "time": "09:00", "tags": ["@work"],
           "starred": false}
         ]}
        """#.utf8)

    /// Values that break length and offset fields: zero, the ends of each width, the value that
    /// crashed the zip library `diary` used before, and numbers near the file's own size.
    static func awkwardValues(near size: Int) -> [UInt32] {
        [
            0, 1, 0x7F, 0xFF, 0xFFFF, 0x7FFF_0000, 0x7FFF_FFFF, 0xFFFF_FFFE, 0xFFFF_FFFF,
            UInt32(size), UInt32(size - 1), UInt32(size + 1), UInt32(size / 2),
        ]
    }

    /// One random mutation of `input`: flipped bytes, a little-endian 16- or 32-bit field set
    /// to an awkward value, a cut, an inserted or deleted run, or a run copied elsewhere.
    public static func mutate<G: RandomNumberGenerator>(_ input: [UInt8], using g: inout G) -> [UInt8] {
        var bytes = input
        let rounds = Int.random(in: 1...3, using: &g)
        for _ in 0..<rounds where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &g)
            switch Int.random(in: 0..<7, using: &g) {
            case 0:
                bytes[at] ^= UInt8.random(in: 1...255, using: &g)
            case 1, 2:
                let value = awkwardValues(near: input.count).randomElement(using: &g)!
                let width = Bool.random(using: &g) ? 4 : 2
                for i in 0..<width where at + i < bytes.count {
                    bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i))
                }
            case 3:
                bytes.removeLast(Int.random(in: 0...(bytes.count - at), using: &g))
            case 4:
                let run = (0..<Int.random(in: 1...16, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
                bytes.insert(contentsOf: run, at: at)
            case 5:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &g)))
            default:
                let from = Int.random(in: 0..<bytes.count, using: &g)
                let run = Array(bytes[from..<min(bytes.count, from + Int.random(in: 1...32, using: &g))])
                bytes.replaceSubrange(at..<min(bytes.count, at + run.count), with: run)
            }
        }
        return bytes
    }
}
