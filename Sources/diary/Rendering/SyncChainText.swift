import DiaryApp
import DiarySync
import Foundation

/// The words for what the membership chain and signatures report (sync format 2).
enum SyncChainText {
    /// A finding about signatures, the chain, or what logs say of each other; nil for others.
    static func finding(_ finding: RemoteFinding) -> String? {
        switch finding {
        case .recordUnvouched(let path):
            return
                "\(path) is not vouched for: its machine was not a member under the statement it names (forged or replayed)"
        case .recordWithheld(let path, let machine, let seq):
            return
                "\(path) says its machine had read record \(seq) of '\(machine)', which this remote does not show: the host keeps records from this machine"
        case .logsDisagree(let path, let machine, let seq):
            return
                "\(path) says its machine read another record \(seq) of '\(machine)' than this machine did: the host showed machines different logs"
        case .statementNotAuthentic(let path, let fault):
            return
                "\(path) is not an authentic statement of this vault's members (\(SyncFindingText.faultText(fault))): forged or damaged"
        case .statementBreaksChain(let path, let fault):
            return "\(path) breaks the membership chain: \(statementFault(fault))"
        case .statementGone(let path):
            return "\(path), a statement this machine accepted before, is gone or was changed"
        case .statementOffTheChain(let path):
            return "\(path) follows no statement this machine accepted: an old fork, or forged"
        case .headerNotAuthentic(let path):
            return "\(path) is not the vault header its statement names, or not this vault's"
        case .headerCheaper(let path):
            return
                "\(path) has a lower key-derivation cost than this vault's header: adopting it would make the passphrase cheaper to guess"
        case .joinNotAuthentic(let path):
            return "\(path) answers an invite of this machine without the invite's secret: a forged join"
        default:
            return nil
        }
    }

    static func statementFault(_ fault: StatementFault) -> String {
        switch fault {
        case .authorNotMember: return "its author is not a member"
        case .wrongSeq: return "it has the wrong number"
        case .badGenesis: return "not a valid first statement"
        case .breaksItsKind(let what): return "it changes what its kind may not (\(what))"
        case .doesNotRetire: return "a new key that does not retire the one it replaces"
        }
    }

    /// A note about the chain; nil for others.
    static func note(_ note: SyncNote) -> String? {
        switch note {
        case .passphraseChangeNotAdopted(let machine):
            return
                "the passphrase was changed on '\(machine)': this vault opens with its old passphrase until `diary sync` on a terminal is given it and then the new one; "
                + "if the old one is forgotten, run `diary reset-passphrase` with the recovery key here too, then `diary sync`"
        case .recordsOfRemovedMachineIgnored(let machine, let from):
            return "records of removed machine '\(machine)' from \(from) on were not read"
        case .awaitingAdmission:
            return
                "this machine waits to be admitted: run `diary sync` on the machine that made the invite, then here"
        case .awaitingAdmissionOf(let machine):
            return "'\(machine)' asked to join; the member who invited it admits it at its next sync"
        case .thisMachineAdmitted: return "this machine is now a member: its changes go out from now on"
        case .machineAdmitted(let machine): return "'\(machine)' is now a member"
        case .thisMachineRemoved:
            return
                "this machine was removed from the members: it writes nothing more; `diary sync stop` ends syncing here"
        case .machineRemoved(let machine): return "'\(machine)' is no longer a member"
        case .readElsewhereNotHere(let machine, let seq, let reader):
            return
                "'\(reader)' had read record \(seq) of '\(machine)', which has not reached this machine yet (still being copied, or kept from it); run `diary sync` again later"
        case .forkSettled: return "key changes made at the same time on two machines were settled"
        case .statementsWaiting(let count):
            return "\(count) statement(s) of the membership chain wait for their vault header to arrive"
        default:
            return nil
        }
    }
}
