import DiaryStore
import Foundation

/// Where things live in a sync remote: the same tree in a git repository and in a synced
/// folder (docs/FORMAT.md §12.1).
///
/// ```
/// diary-sync                      "diary-sync 2\n" and the vault id: what this folder is
/// log/<machine>/<seq>             one sealed record per file, written once, never changed
/// keys/<machine>-<seq>.<store>    the vault header a key record published, for joining
/// ```
///
/// Every file has one writer (the machine its name carries) and is never rewritten, so a git
/// merge is a union of new files and a file-sync tool never sees two writers on one path.
enum RemoteLayout {
    static let marker = "diary-sync"
    static let markerVersion = 2
    static let logDirectory = "log"
    static let keysDirectory = "keys"

    static func markerText(vaultID: UUID) -> String {
        "\(marker) \(markerVersion)\n\(vaultID.uuidString.lowercased())\n"
    }

    static func hex(_ id: UUID) -> String { id.bytes.map { String(format: "%02x", $0) }.joined() }

    static func machineID(fromHex hex: String) -> UUID? {
        guard hex.count == 32, hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            guard let b = UInt8(hex[i..<j], radix: 16) else { return nil }
            bytes.append(b)
            i = j
        }
        return UUID(bytes: bytes)
    }

    /// The name shown for a machine until one of its records gives its own (also the name a
    /// new log starts with in the state).
    static func placeholderName(_ machine: UUID) -> String { "machine \(hex(machine).prefix(8))" }

    static func recordName(_ seq: UInt64) -> String { String(format: "%012llu", seq) }

    /// A record file name: exactly twelve decimal digits, from 1.
    static func seq(fromName name: String) -> UInt64? {
        guard name.count == 12, name.allSatisfy(\.isASCII), name.allSatisfy(\.isNumber),
            let n = UInt64(name), n > 0
        else { return nil }
        return n
    }

    static func recordPath(machine: UUID, seq: UInt64) -> String {
        "\(logDirectory)/\(hex(machine))/\(recordName(seq))"
    }

    static func headerPath(machine: UUID, seq: UInt64, store: StoreKind) -> String {
        "\(keysDirectory)/\(hex(machine))-\(recordName(seq)).\(store.rawValue)"
    }

    /// `keys/<machine>-<seq>.<store>` read back, or nil for any other name.
    static func header(fromName name: String) -> (machine: UUID, seq: UInt64, store: StoreKind)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let store = StoreKind(rawValue: String(parts[1])) else { return nil }
        let stem = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        // The number is a chain statement's: from 0 (the genesis publishes the first headers).
        let digits = String(stem.count == 2 ? stem[1] : "")
        guard stem.count == 2, let machine = machineID(fromHex: String(stem[0])), digits.count == 12,
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), let seq = UInt64(digits)
        else { return nil }
        return (machine, seq, store)
    }

    /// What file-sync tools name the second copy of a file both sides changed: Syncthing's
    /// `name.sync-conflict-20240101-120000-ABCDEFG`, Dropbox's `name (laptop's conflicted copy …)`,
    /// Nextcloud's `name (conflicted copy …)`, and the `name (1)` of many others. Returns the
    /// original name.
    static func conflictCopyOriginal(_ name: String) -> String? {
        if let range = name.range(of: ".sync-conflict-") {
            // Syncthing keeps the extension after the marker: `a.sync-conflict-…-X.ext`.
            let rest = name[range.upperBound...]
            let ext = rest.firstIndex(of: ".").map { String(rest[$0...]) } ?? ""
            return String(name[..<range.lowerBound]) + ext
        }
        // A parenthesised note: Dropbox's "(laptop's conflicted copy 2024-01-01)", Nextcloud's
        // "(conflicted copy 2024-01-01 101010)", or a number as Google Drive and Windows add.
        var from = name.startIndex
        while let open = name.range(of: " (", range: from..<name.endIndex) {
            from = open.upperBound
            guard let close = closingParenthesis(in: name, after: open.upperBound) else { continue }
            let note = name[open.upperBound..<close]
            guard note.lowercased().contains("conflict") || (!note.isEmpty && note.allSatisfy(\.isNumber)) else {
                continue
            }
            return String(name[..<open.lowerBound]) + String(name[name.index(after: close)...])
        }
        return nil
    }

    /// The ")" that closes the "(" just before `start`, counting nested pairs.
    private static func closingParenthesis(in name: String, after start: String.Index) -> String.Index? {
        var depth = 1
        var i = start
        while i < name.endIndex {
            if name[i] == "(" { depth += 1 }
            if name[i] == ")" {
                depth -= 1
                if depth == 0 { return i }
            }
            i = name.index(after: i)
        }
        return nil
    }
}
