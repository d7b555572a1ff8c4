import CQREncode
import Foundation

/// A QR code of a short text, as libqrencode makes it: a square of modules, dark or light.
///
/// Why here: only the terminal shows one (the recovery key, `diary recovery-key create`), and no
/// library layer draws anything.
struct QRCode: Equatable {
    /// `modules[row][column]`: true when dark. The quiet zone is not included.
    let modules: [[Bool]]

    /// The code of `text` at error correction level M (a key printed on paper survives a
    /// smudge). Upper-case letters, digits and `-` are encoded in alphanumeric mode. Nil when
    /// libqrencode cannot make one (a text too long for any version).
    init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }

    init(modules: [[Bool]]) { self.modules = modules }

    /// The modules with a light quiet zone of `margin` modules on every side.
    func withQuietZone(_ margin: Int) -> [[Bool]] {
        let width = modules.count + 2 * margin
        let blank = [Bool](repeating: false, count: width)
        let padded = modules.map {
            Array(repeating: false, count: margin) + $0 + Array(repeating: false, count: margin)
        }
        return Array(repeating: blank, count: margin) + padded + Array(repeating: blank, count: margin)
    }

    /// The light border every side of the code, in modules (ISO/IEC 18004 asks 4).
    static let quietZone = 4

    /// The code as lines of terminal half blocks, two rows of modules to a line, with a quiet
    /// zone (with less than 4 modules some scanners fail on a dark terminal): `▀` the upper module drawn, `▄` the lower, `█` both. With `colours`,
    /// dark modules are drawn black on white, so the code is dark on light whatever the
    /// terminal's own colours (scanners expect it so). Without, light modules are drawn
    /// instead, in the terminal's usual light text on a dark background (as `qrencode -t UTF8`).
    func halfBlockLines(colours: Bool) -> [String] {
        var rows = withQuietZone(Self.quietZone)
        if rows.count % 2 == 1 { rows.append([Bool](repeating: false, count: rows[0].count)) }
        if !colours { rows = rows.map { $0.map { !$0 } } }
        return stride(from: 0, to: rows.count, by: 2).map { index in
            let glyphs = zip(rows[index], rows[index + 1]).map { top, bottom -> Character in
                switch (top, bottom) {
                case (true, true): return "█"
                case (true, false): return "▀"
                case (false, true): return "▄"
                case (false, false): return " "
                }
            }
            let line = String(glyphs)
            return colours ? "\u{1B}[30;107m" + line + "\u{1B}[0m" : line
        }
    }

    /// The modules (quiet zone included, true when dark) that half-block lines show: the
    /// inverse of `halfBlockLines`, its colour codes removed, for tests and for anyone checking
    /// a drawing.
    static func modules(ofHalfBlockLines lines: [String], colours: Bool) -> [[Bool]]? {
        let drawn = lines.map {
            $0.replacingOccurrences(of: "\u{1B}[30;107m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        }
        return drawnModules(drawn).map { rows in colours ? rows : rows.map { $0.map { !$0 } } }
    }

    private static func drawnModules(_ lines: [String]) -> [[Bool]]? {
        var rows: [[Bool]] = []
        for line in lines {
            var top: [Bool] = []
            var bottom: [Bool] = []
            for glyph in line {
                switch glyph {
                case "█": (top, bottom) = (top + [true], bottom + [true])
                case "▀": (top, bottom) = (top + [true], bottom + [false])
                case "▄": (top, bottom) = (top + [false], bottom + [true])
                case " ": (top, bottom) = (top + [false], bottom + [false])
                default: return nil
                }
            }
            rows += [top, bottom]
        }
        return rows
    }
}
