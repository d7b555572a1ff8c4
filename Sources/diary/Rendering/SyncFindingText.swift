import DiaryApp
import DiarySync
import Foundation

/// The words for what DiarySync reports as values: findings about the remote, notes, pending
/// records, unusable remotes and refused resolutions. Unescaped: the caller escapes the line
/// as a whole for the terminal.
enum SyncFindingText {
    /// One line of the list a refused sync prints under its error.
    static func finding(_ finding: RemoteFinding) -> String {
        switch finding {
        case .branchGone(let branch, let last):
            return "the remote's branch '\(branch)' is gone (this machine had seen commit \(last.prefix(12)))"
        case .rewound(let head, let last):
            return
                "the remote was rewound: commit \(head.prefix(12)) does not contain \(last.prefix(12)), which this machine had seen (a force-push?)"
        case .fileRewritten(let status, let path):
            let change = path.isEmpty ? status : status + " " + path.replacingOccurrences(of: "\t", with: " ")
            return "the remote changed a file that is never rewritten: \(change)"
        case .treeEntryRefused(let path, let mode):
            return
                "the remote's git tree holds \(path.replacingOccurrences(of: "\t", with: " ")) (\(Self.gitMode(mode))), which diary never writes"
        case .markerGone(let file):
            return "the remote's '\(file)' file is gone: not the remote this machine synced with, or emptied"
        case .logGone(let machine, let read):
            return "the log of machine '\(machine)' is gone (this machine had read \(read) record(s) of it)"
        case .recordRemoved(let machine, let seq, let readUpTo):
            return "record \(seq) of machine '\(machine)' was removed (this machine had read up to \(readUpTo))"
        case .recordReplaced(let machine, let seq):
            return "record \(seq) of machine '\(machine)' was replaced or truncated after this machine read it"
        case .notAPlainFile(let path, let kind):
            return "\(path) is \(Self.entry(kind)), which no machine writes: planted (nothing was read through it)"
        case .recordUnreadable(let path):
            return "\(path) cannot be read (not a regular file, or too large)"
        case .recordOfNewerVersion(let path, let version):
            return
                "\(path) is a record of version \(version), which this diary does not read: upgrade diary on this machine"
        case .recordOfOtherVault(let path, let vault):
            return "\(path) belongs to another vault (\(vault.uuidString.lowercased()))"
        case .recordNotAuthentic(let path, let fault):
            return "\(path) is not an authentic record of this vault (\(Self.fault(fault))): edited, swapped or damaged"
        case .recordOutOfChain(let path, let previous):
            return "\(path) does not follow record \(previous) of its machine (a replaced, removed or reordered record)"
        case .recordWrittenTwice(let machine, let seq, let copy):
            return
                "machine \(Self.shortMachineID(machine)) wrote two different records \(seq) (\(copy)): a copied machine or a forged log"
        case .recordUnvouched, .recordWithheld, .logsDisagree, .statementNotAuthentic, .statementBreaksChain,
            .statementOffTheChain, .statementGone, .headerNotAuthentic, .headerCheaper, .joinNotAuthentic:
            return SyncChainText.finding(finding)!
        }
    }

    static func faultText(_ fault: RecordFault) -> String { Self.fault(fault) }

    private static func fault(_ fault: RecordFault) -> String {
        switch fault {
        case .notARecord: return "not a record"
        case .unsupportedVersion(let version): return "record version \(version)"
        case .wrongPlace: return "carries another name"
        case .badLength: return "length"
        case .doesNotAuthenticate: return "does not authenticate"
        case .badSignature: return "signature"
        case .lamportOutOfRange: return "lamport out of range"
        case .undecodable(let detail), .other(let detail): return detail
        }
    }

    /// The first eight hex digits of a machine id, as in its log folder's name.
    private static func shortMachineID(_ machine: UUID) -> String {
        String(machine.uuidString.lowercased().prefix(8))
    }

    static func note(_ note: SyncNote) -> String {
        switch note {
        case .unexpectedFile(let path): return "unexpected file in the remote, left alone: \(path)"
        case .unexpectedLogEntry(let path): return "unexpected entry in the remote, left alone: \(path)"
        case .identicalRecordCopyRemoved(let path): return "removed a conflict copy identical to its record: \(path)"
        case .recordPutBack(let path): return "put back a record a sync tool had left only as a conflict copy: \(path)"
        case .unauthenticRecordCopyLeft(let path):
            return "conflict copy that is not an authentic record, left alone: \(path)"
        case .identicalFileCopyRemoved(let path): return "removed a conflict copy identical to its file: \(path)"
        case .filePutBack(let path): return "put back a file a sync tool had left only as a conflict copy: \(path)"
        case .differingCopyLeft(let path): return "conflict copy that differs from its file, left alone: \(path)"
        case .ownPassphraseChangeLost(let machine):
            return
                "the passphrase change made on this machine lost to the key rotation on '\(machine)': this vault now opens with the passphrase set there"
        case .keyRotationFollowed(let machine):
            return "the vault key was rotated on '\(machine)': this vault now uses the new key"
        case .passphraseChangeFollowed(let machine):
            return
                "the passphrase was changed on '\(machine)': from now on this vault opens with the passphrase set there"
        case .recoveryKeyChangeFollowed(let machine):
            return
                "the recovery key was made, replaced or removed on '\(machine)': this vault now has that change (its passphrase is the same)"
        case .unannouncedPassphraseChangePublished:
            return
                "this vault's passphrase was changed here without sync being told (an interrupted `diary passwd`?); publishing it now"
        case .passphraseChangeNotAdopted, .recordsOfRemovedMachineIgnored, .awaitingAdmission, .awaitingAdmissionOf,
            .thisMachineAdmitted, .machineAdmitted, .thisMachineRemoved, .machineRemoved, .forkSettled,
            .readElsewhereNotHere,
            .statementsWaiting:
            return SyncChainText.note(note)!
        case .entriesFetchedBack(let count):
            return
                "fetched back \(entries(count)) from the remote that had gone from this vault without `diary delete` (an older copy put back?): only a deletion made on purpose deletes an entry on every machine"
        case .entriesNotFetchedBackYet(let count):
            return
                "\(entries(count)) gone from this vault without `diary delete` could not be fetched back yet (a record is not at hand); the next sync tries again"
        case .olderEntriesPublishedBeside(let count):
            return
                "published \(entries(count)) of the older state accepted here beside the newer versions, not over them: where they differ, `diary conflicts` shows both"
        }
    }

    private static func entries(_ count: Int) -> String {
        count == 1 ? "1 entry" : "\(count) entries"
    }

    /// What follows "pending: ".
    static func pending(_ record: PendingRecord) -> String {
        switch record {
        case .stillArriving(let path, let bytes): return "\(path) is still arriving (\(bytes) bytes so far)"
        case .unknownKey(let path): return "\(path) is sealed under a key this machine does not have yet"
        case .notArrived(let machine, let seq, let later):
            return "machine '\(machine)': record \(seq) has not arrived yet (record \(later) has)"
        }
    }

    /// What follows "cannot use the remote: ".
    static func problem(_ problem: RemoteProblem) -> String {
        switch problem {
        case .unknownMarker(let path): return "\(path) is not a diary sync remote of a version this diary reads"
        case .notEmptyAndNoMarker(let path):
            return "\(path) is not empty and holds no diary remote: refusing to mix with other files"
        case .notAMarker(let path): return "\(path) is not a diary sync marker"
        case .nothingToJoin(let file): return "no diary vault syncs there yet (no '\(file)' file)"
        case .unreadableMarker(let file): return "the remote's '\(file)' file is not one this diary reads"
        case .noPublishedHeader: return "the remote publishes no vault header"
        case .otherMachinesPushedFirst(let attempts):
            return
                "other machines pushed first \(Self.times(attempts)) in a row; this machine's changes are kept and go with the next `diary sync`"
        case .gitNotRunnable(let reason): return "cannot run git: \(reason) (install git)"
        case .gitFailed(let command, let message, let status): return "git \(command): \(message ?? "exit \(status)")"
        case .gitTimedOut(let command, let seconds):
            return "git \(command) did not finish within \(seconds) seconds and was stopped"
        case .wrongEntryKind(let path, let found):
            return
                "\(path) is \(Self.entry(found)) where the remote needs a folder or a file; diary follows no links there"
        }
    }

    private static func entry(_ kind: RemoteEntryKind) -> String {
        switch kind {
        case .symbolicLink: return "a symbolic link"
        case .folder: return "a folder"
        case .file: return "a file"
        case .special: return "a special file"
        }
    }

    /// Git's octal mode of a tree entry, named.
    private static func gitMode(_ mode: String) -> String {
        switch mode {
        case "120000": return "a symbolic link"
        case "160000": return "a submodule"
        case "100755": return "an executable file"
        case "100644": return "a git control file"
        default: return "mode \(mode)"
        }
    }

    private static func times(_ count: Int) -> String {
        let words = ["no", "once", "twice", "three times", "four times", "five times", "six times"]
        return count < words.count ? words[count] : "\(count) times"
    }

    /// Why a resolution was refused, with the choices that would do.
    static func refusal(_ refusal: ResolveRefusal) -> String {
        switch refusal {
        case .noVersionFromThisMachine:
            return "no version of this entry was written on this machine; use --keep theirs, both or --edit"
        case .noVersionFromOtherMachines: return "every version was written on this machine; use --keep mine or --edit"
        case .severalOtherVersions(let machines):
            let names = machines.map { "'\($0)'" }.sorted().joined(separator: ", ")
            return
                "\(machines.count) versions came from other machines (\(names)): --keep theirs would drop all but one; use --keep both to keep every version, or --edit"
        case .everyVersionDeleted: return "every version is a deletion; use --keep mine"
        case .entryChangedMeanwhile: return "the entry changed while resolving; run `diary sync`, then resolve again"
        case .captureDeviceRecord:
            return "this is a capture device's record, which has no text: use --keep mine or --keep theirs"
        }
    }
}
