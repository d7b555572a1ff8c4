import Foundation

/// What the simulator knows that the machines may not: which entries were acknowledged (written,
/// then synced without complaint) and which were deleted on purpose, every text ever written,
/// what the attacker crafted, and what each machine showed after the last step. The checks run
/// against it after every step.
struct SimModel {
    /// Entries created on a machine and not yet published by a sync of that machine.
    var unpublished: [String: Set<UUID>] = [:]
    /// Entries written on a machine and then published by a sync that did not complain.
    var acknowledged = Set<UUID>()
    /// Entries deleted by the user (`diary delete`) on some machine.
    var deleted = Set<UUID>()
    /// Every text an entry ever had, to look for in the remote's files.
    var texts = Set<String>()
    /// Texts of entries only the attacker wrote.
    var forgedTexts = Set<String>()
    /// Entries a forged record deleted.
    var forgedDeletions = Set<UUID>()
    /// What each machine showed after the previous step.
    var shown: [String: [UUID: SimEntry]] = [:]
    /// Machines whose sync refused or failed, and the last reason (an alarm the user saw).
    var alarms: [String: String] = [:]
    /// Broken invariants, in the order found.
    var violations: [String] = []

    /// After machine `name` showed `now`: (1) no acknowledged entry it showed before is gone
    /// without an alarm, unless the user deleted it or `excused` (the user put an old copy back
    /// here, or the step failed on this machine and so is the alarm); (2) nothing forged shows.
    mutating func check(_ name: String, now: [UUID: SimEntry], excused: Bool, step: String) {
        if let before = shown[name], !excused {
            for (id, entry) in before where now[id] == nil && acknowledged.contains(id) && !deleted.contains(id) {
                let how = forgedDeletions.contains(id) ? " (a forged record deleted it)" : ""
                violations.append("\(step): entry \(short(id)) “\(entry.text.prefix(24))” vanished on \(name)\(how)")
            }
        }
        for (id, entry) in now where forgedTexts.contains(entry.text) {
            violations.append("\(step): \(name) shows forged entry \(short(id)) “\(entry.text.prefix(24))”")
        }
        shown[name] = now
    }

    /// (4) No text of any entry appears in any file of the remote.
    mutating func checkSealed(_ tree: SimTree, step: String) {
        var all = Data()
        var offsets: [(Int, String)] = []
        for (path, file) in tree.sorted(by: { $0.key < $1.key }) {
            guard case .bytes(let bytes) = file else { continue }
            offsets.append((all.count, path))
            all.append(contentsOf: bytes)
        }
        for text in texts {
            guard let range = all.range(of: Data(text.utf8)) else { continue }
            let path = offsets.last { $0.0 <= range.lowerBound }?.1 ?? "?"
            violations.append("\(step): the remote's \(path) holds the plaintext “\(text.prefix(24))”")
        }
    }

    /// (3) After quiescence every machine that syncs and a fresh joiner show the same entries,
    /// and each acknowledged entry that nobody deleted is among them (unless the host was
    /// hostile: a forged deletion is then reported by (1) where it showed).
    mutating func checkConverged(_ views: [(name: String, entries: [UUID: SimEntry])], hostile: Bool) {
        guard let (reference, entries) = views.first else { return }
        for (name, other) in views.dropFirst() where other != entries {
            let missing = Set(entries.keys).subtracting(other.keys).map(short).sorted()
            let extra = Set(other.keys).subtracting(entries.keys).map(short).sorted()
            let differing = entries.keys.filter { other[$0] != nil && other[$0] != entries[$0] }.map(short).sorted()
            violations.append(
                "quiescence: \(name) differs from \(reference): missing \(missing), extra \(extra), differing \(differing)"
            )
        }
        guard !hostile else { return }
        let lost = acknowledged.subtracting(deleted).subtracting(entries.keys)
        if !lost.isEmpty {
            violations.append("quiescence: acknowledged entries \(lost.map(short).sorted()) are on no machine")
        }
    }
}

func short(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) }
