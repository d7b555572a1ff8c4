import DiaryStore
import Foundation

/// Something the remote shows that contradicts what this machine saw before, or that is not
/// this vault's: each one stops the sync before anything is written (docs/FORMAT.md §12.7).
/// Paths are relative to the remote tree; machine names are those the machines gave themselves.
public enum RemoteFinding: Equatable, Sendable {
    // A git remote's history (§12.8).
    /// The branch this machine fetched before is gone.
    case branchGone(branch: String, lastSeenCommit: String)
    /// The branch no longer contains the commit this machine last fetched or pushed.
    case rewound(head: String, lastSeenCommit: String)
    /// A commit changed or removed a file that is written once (`status` is git's letter).
    case fileRewritten(status: String, path: String)
    /// The tree of a commit to be merged holds something that is not a plain file (git's
    /// `mode`: a symbolic link 120000, a submodule 160000, an executable 100755), or a file git
    /// itself obeys (`.gitattributes`, `.gitignore`, `.gitmodules`): diary writes neither.
    case treeEntryRefused(path: String, mode: String)

    // The marker (§12.1).
    /// The marker file is gone although this machine has read records there.
    case markerGone(file: String)

    // The machine logs (§12.7).
    /// A machine's whole log is gone.
    case logGone(machine: String, recordsRead: UInt64)
    /// A record this machine read is gone.
    case recordRemoved(machine: String, seq: UInt64, readUpTo: UInt64)
    /// A record this machine read has other bytes now.
    case recordReplaced(machine: String, seq: UInt64)
    /// A link or a special file (`kind`) in the remote, where only plain files and folders are,
    /// or a folder inside a machine's attachment folder, where only object files are.
    case notAPlainFile(path: String, kind: RemoteEntryKind)
    /// A new record is not a regular file, or is too large.
    case recordUnreadable(path: String)
    /// A new record of a format version this diary does not read.
    case recordOfNewerVersion(path: String, version: Int)
    /// A new record of another vault.
    case recordOfOtherVault(path: String, vault: UUID)
    /// A new record that does not open, or opens as something else.
    case recordNotAuthentic(path: String, fault: RecordFault)
    /// A new record that does not name the hash of the record before it.
    case recordOutOfChain(path: String, previousSeq: UInt64)
    /// Two authentic, different records with one number: a copied machine or a forged log.
    case recordWrittenTwice(machine: UUID, seq: UInt64, copy: String)

    /// A record signed by a machine that was not a member when it wrote it, or under a
    /// statement this machine did not accept.
    case recordUnvouched(path: String)
    /// The record says its writer had read record `seq` of `machine`, which this git remote does
    /// not hold: the host withholds it from this machine.
    case recordWithheld(path: String, machine: String, seq: UInt64)
    /// The record says its writer read another record `seq` of `machine` than this machine did:
    /// the host showed machines different logs.
    case logsDisagree(path: String, machine: String, seq: UInt64)

    // The membership chain.
    /// A statement that does not open, or whose signature is not its author's.
    case statementNotAuthentic(path: String, fault: RecordFault)
    /// An authentic statement that does not follow from the one before it.
    case statementBreaksChain(path: String, fault: StatementFault)
    /// A statement that follows nothing this machine accepted: an old fork or a forgery.
    case statementOffTheChain(path: String)
    /// A statement this machine accepted before is gone or has other bytes now.
    case statementGone(path: String)
    /// A published header that does not fit the statement that names it, or this vault.
    case headerNotAuthentic(path: String)
    /// A published header whose key derivation costs less than this vault's.
    case headerCheaper(path: String)
    /// A join that names an invite of this machine without its secret.
    case joinNotAuthentic(path: String)
}

/// Why a record file did not open as an authentic record of this vault.
public enum RecordFault: Equatable, Sendable {
    case notARecord
    case unsupportedVersion(Int)
    /// Its clear prefix names another machine or number than its file name.
    case wrongPlace
    /// Its length is one no sealed record has.
    case badLength
    case doesNotAuthenticate
    /// Its signature is not its writer's.
    case badSignature
    /// Its lamport is out of range, or not above the record before it.
    case lamportOutOfRange
    /// It authenticates, but its plaintext does not decode (`detail`: the decoder's error).
    case undecodable(detail: String)
    /// Anything else that went wrong while opening it.
    case other(detail: String)
}

/// A record not read yet, and not a contradiction: the next sync reads it.
public enum PendingRecord: Equatable, Sendable {
    /// A synced folder is still copying it.
    case stillArriving(path: String, bytes: Int)
    /// It is sealed under a key this machine has not learnt yet.
    case unknownKey(path: String)
    /// A later record of the machine is there, this one not yet.
    case notArrived(machine: String, seq: UInt64, laterSeq: UInt64)
}

/// Something a sync did or saw that is worth telling, though nothing is wrong.
public enum SyncNote: Equatable, Sendable {
    /// A file the remote layout has no place for, left as it is.
    case unexpectedFile(path: String)
    /// A folder (or file) in the logs folder that does not name a machine, left as it is.
    case unexpectedLogEntry(path: String)
    /// A file-sync tool's conflict copy of a record, identical to it, removed.
    case identicalRecordCopyRemoved(path: String)
    /// A record that existed only as a conflict copy, put back under its name.
    case recordPutBack(path: String)
    /// A conflict copy of a record that does not open, left as it is.
    case unauthenticRecordCopyLeft(path: String)
    /// A conflict copy of the marker or of a published header, identical to it, removed.
    case identicalFileCopyRemoved(path: String)
    /// A published header that existed only as a conflict copy, put back under its name.
    case filePutBack(path: String)
    /// A conflict copy of the marker or a header that differs from it, left as it is.
    case differingCopyLeft(path: String)
    /// The passphrase change made here lost to the rotation made on `machine`.
    case ownPassphraseChangeLost(rotatedOn: String)
    /// This vault now uses the key `machine` rotated to.
    case keyRotationFollowed(machine: String)
    /// This vault now opens with the passphrase set on `machine`.
    case passphraseChangeFollowed(machine: String)
    /// This vault now has the recovery key set, replaced or removed on `machine` (the
    /// passphrase is the same).
    case recoveryKeyChangeFollowed(machine: String)
    /// The passphrase was changed here without sync being told (an interrupted passphrase
    /// change); this sync publishes it.
    case unannouncedPassphraseChangePublished
    /// The passphrase was changed on `machine`; this vault keeps its header until the new
    /// passphrase is given at a sync.
    case passphraseChangeNotAdopted(machine: String)
    /// Records `machine` wrote after it was removed, from `from` on, were not read.
    case recordsOfRemovedMachineIgnored(machine: String, from: UInt64)
    /// This machine asked to join and waits for the member who invited it to admit it.
    case awaitingAdmission
    /// `machine` asked to join; the member who invited it admits it at its next sync.
    case awaitingAdmissionOf(machine: String)
    case thisMachineAdmitted
    case machineAdmitted(machine: String)
    /// This machine was removed: it reads what was written before, and writes nothing more.
    case thisMachineRemoved
    case machineRemoved(machine: String)
    /// Machine `by` had read record `seq` of `machine`, which has not reached this folder yet:
    /// a file-sync tool still delivering it, or a host keeping it from this machine.
    case readElsewhereNotHere(machine: String, seq: UInt64, by: String)
    /// A fork of the chain was ended by a settle.
    case forkSettled
    /// Statements of the chain wait for the header of a new key to arrive.
    case statementsWaiting(count: Int)
    /// Entries missing from the local vault (an older copy put back?) that nobody deleted
    /// here were fetched back: only an entry deleted on purpose is deleted on every machine.
    case entriesFetchedBack(count: Int)
    /// Entries missing from the local vault that nobody deleted here could not be fetched back
    /// yet (a record they are in is not at hand); the next sync tries again.
    case entriesNotFetchedBackYet(count: Int)
    /// After an older state was accepted here, entries whose copy here differs from what sync
    /// saw were published beside the newer versions, not over them (conflicts where they differ).
    case olderEntriesPublishedBeside(count: Int)
}

/// Why a remote cannot be used (`SyncError.remoteUnusable`).
public enum RemoteProblem: Equatable, Sendable {
    /// At a sync: the marker at `path` names no vault, or a format this diary does not read.
    case unknownMarker(path: String)
    /// Starting to sync: the folder at `path` holds other files and no marker.
    case notEmptyAndNoMarker(path: String)
    /// Starting to sync: the marker at `path` is not one.
    case notAMarker(path: String)
    /// Joining: the remote has no marker (`file`): no vault syncs there.
    case nothingToJoin(markerFile: String)
    /// Joining: the remote's marker (`file`) is not one this diary reads.
    case unreadableMarker(markerFile: String)
    /// Joining: the remote publishes no vault header to open.
    case noPublishedHeader
    /// Other machines pushed first at every one of `attempts` tries; the changes stay for the
    /// next sync.
    case otherMachinesPushedFirst(attempts: Int)
    /// The `git` program could not be started.
    case gitNotRunnable(reason: String)
    /// `git <command>` failed: git's own message (its advice left out), or nil when it said
    /// nothing and exited with `status`.
    case gitFailed(command: String, message: String?, status: Int32)
    /// `git <command>` ran longer than `seconds` and was killed, with every process it started.
    case gitTimedOut(command: String, seconds: Int)
    /// The remote tree has `found` at `path` where it needs a folder or a regular file: diary
    /// follows no link in the remote and reads or writes nothing through one.
    case wrongEntryKind(path: String, found: RemoteEntryKind)
}

/// What stands in the remote tree where a folder or a regular file is needed.
public enum RemoteEntryKind: Equatable, Sendable {
    case symbolicLink
    /// A folder where a file is needed.
    case folder
    /// A regular file where a folder is needed.
    case file
    /// A FIFO, a socket or a device.
    case special
}

/// Why `SyncEngine.resolve` refused a choice.
public enum ResolveRefusal: Equatable, Sendable {
    /// `.mine`, and no version was written on this machine.
    case noVersionFromThisMachine
    /// `.theirs`, and every version was written on this machine.
    case noVersionFromOtherMachines
    /// `.theirs`, and several other machines wrote versions (their names): choosing one would
    /// drop the others.
    case severalOtherVersions(machines: [String])
    /// `.text`, and every version is a deletion: there are no fields to keep.
    case everyVersionDeleted
    /// The entry changed in the local vault while the resolution was being written.
    case entryChangedMeanwhile
    /// `.both` or `.text`, and a version is a capture device's record (two enrolments under one
    /// id, or one against a deletion): it has no text, and a copy of it would be no entry.
    case captureDeviceRecord
}
