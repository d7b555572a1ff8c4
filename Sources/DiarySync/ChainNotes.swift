import Foundation

/// What accepted statements are worth telling: who joined, who left, and whether this machine
/// was admitted or removed.
enum ChainNotes {
    static func notes(for accepted: [AcceptedStatement], before: ChainState, me: UUID) -> [SyncNote] {
        var notes: [SyncNote] = []
        var previous = Set(before.members.map(\.machine))
        for statement in accepted where !statement.superseded || statement.kind == .settle {
            let now = Set(statement.members.map(\.machine))
            for added in now.subtracting(previous) where statement.kind == .admit {
                let name = statement.member(added)?.name ?? "?"
                notes.append(added == me ? .thisMachineAdmitted : .machineAdmitted(machine: name))
            }
            for removed in previous.subtracting(now) {
                let name = before.member(removed)?.name ?? "?"
                notes.append(removed == me ? .thisMachineRemoved : .machineRemoved(machine: name))
            }
            if statement.kind == .settle { notes.append(.forkSettled) }
            previous = now
        }
        return notes
    }
}
