import DiaryApp
import DiarySync

extension ErrorReport {
    /// Sync format 2's errors: formats, invites, members, forks.
    init(syncMembership error: SyncError) {
        switch error {
        case .stateOfFormat1:
            self.init(
                message: "this machine's sync state is from sync format 1",
                hint:
                    "if another machine upgraded the remote: `diary sync stop`, then `diary sync init REMOTE --invite CODE` with a code from `diary sync invite` there; otherwise `diary sync upgrade` here",
                code: .failure)
        case .remoteOfFormat1:
            self.init(
                message: "the remote uses sync format 1, which this diary no longer reads",
                hint:
                    "`diary sync upgrade` on one machine moves it to format 2; the others then join again with an invite",
                code: .failure)
        case .alreadyFormat2:
            self.init(message: "the remote and this machine already use sync format 2", hint: nil, code: .failure)
        case .inviteNeeded:
            self.init(
                message: "joining a vault that syncs takes an invite from a machine that already syncs",
                hint: "run `diary sync invite` there, then pass its code here with --invite CODE", code: .usage)
        case .inviteNotForThisChain:
            self.init(
                message:
                    "the invite does not match this remote's members: another remote, or the host shows this machine something else than the inviting machine saw; nothing was changed",
                hint: "check the remote's address, or ask for a new invite", code: .damaged)
        case .notAMember:
            self.init(
                message: "this machine is not a member yet: only members invite",
                hint: "run `diary sync` on the machine that invited this one, then `diary sync` here", code: .failure)
        case .thisMachineRemoved:
            self.init(
                message: "this machine was removed from the vault's members: it can no longer invite or write",
                hint: "`diary sync stop` ends syncing here; a member can invite it again as a new machine",
                code: .failure)
        case .noSuchMember(let name):
            self.init(
                message: "no member is called '\(Printable.escaped(name))'", hint: "`diary sync members` lists them",
                code: .usage)
        case .ambiguousMember(let name):
            self.init(
                message: "more than one member is called '\(Printable.escaped(name))'",
                hint: "`diary sync members` shows them with their fingerprints", code: .usage)
        case .cannotRemoveThisMachine:
            self.init(
                message: "a machine cannot remove itself",
                hint: "remove it from another member, or `diary sync stop` here", code: .usage)
        default:
            self.init(syncChain: error)
        }
    }

    /// A fork, a statement this machine would not write, a lamport used up.
    private init(syncChain error: SyncError) {
        switch error {
        case .chainForked(let machines):
            let names = machines.map { "'\(Printable.escaped($0))'" }.joined(separator: " and ")
            self.init(
                message:
                    "the vault's key or members were changed at the same time on \(names.isEmpty ? "two machines" : names); nothing was synced",
                hint: "run `diary rekey` on any one machine, then `diary sync` on each: that settles it",
                code: .damaged)
        case .cannotState(let fault):
            self.init(
                message:
                    "this machine would write a statement that breaks the chain (\(SyncChainText.statementFault(fault))); nothing was written",
                hint: nil, code: .failure)
        case .keyChangeUnderOldPassphrase(let machine):
            // The machine named published the key in force, under the passphrase in force; it
            // may have taken that passphrase from another machine, so it is named as one that
            // uses it, not as the one that set it.
            self.init(
                message:
                    "the passphrase in force changed after this machine's key rotation (the current key, from '\(Printable.escaped(machine))', is under another passphrase): publishing the rotation would bring the old passphrase back; nothing was synced",
                hint:
                    "run `diary passwd` here and set the passphrase your other machines use now (as '\(Printable.escaped(machine))' does), then `diary sync`",
                code: .failure)
        case .recoveryKeyChangeOverridden(let machine):
            let name = Printable.escaped(machine)
            self.init(
                message:
                    "'\(name)' changed the vault key, the passphrase or the recovery key before it took in the recovery key change made here: its header names an older or another recovery key; nothing was synced, and no key or recovery change is made here until it is",
                hint:
                    "on '\(name)': `diary recovery-key remove --yes` (unless done already), then `diary recovery-key create` (the key to keep from then on), then `diary sync` there and then here",
                code: .failure)
        case .recoveryKeyReplacedElsewhere(let machine):
            let name = Printable.escaped(machine)
            self.init(
                message:
                    "the recovery key was replaced or removed on '\(name)' while this machine changed the vault key or passphrase: publishing the change would seal it to the replaced key; nothing was synced",
                hint:
                    "here: `diary recovery-key remove --yes` (unless it says there is none), then `diary recovery-key create` (the key to keep from then on), then `diary sync` here and on '\(name)'",
                code: .failure)
        case .lamportExhausted:
            self.init(
                message: "this machine's lamport clock is used up: a forged record pushed it there", hint: nil,
                code: .damaged)
        default:
            preconditionFailure("not a membership error of sync: \(error)")
        }
    }
}
