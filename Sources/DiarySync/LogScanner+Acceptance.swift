import DiaryCrypto
import DiaryStore
import Foundation

/// What a log is read against: its machine, the chain this machine accepted, the keys it holds.
struct LogContext {
    let machine: UUID
    let chain: ChainState
    let ring: SyncKeyRing
}

extension LogScanner {
    /// The record at `path` if it is accepted (docs/FORMAT.md §12): signed by its machine, open
    /// under a key in force, in this log's chain of hashes, written under a statement this
    /// machine accepted in which its machine was a member. Otherwise nil, with why in `outcome`.
    func accept(
        _ bytes: [UInt8], at path: String, seq: UInt64, context: LogContext, signer: Member, log: LogState,
        into outcome: inout Outcome
    ) -> SyncRecord? {
        guard prefixFits(bytes, at: path, into: &outcome) else { return nil }
        guard RecordCodec.signatureIsValid(bytes, publicKey: signer.publicKey) else {
            outcome.findings.append(.recordNotAuthentic(path: path, fault: .badSignature))
            return nil
        }
        var record: SyncRecord
        do {
            record = try RecordCodec.open(
                bytes, vaultID: vaultID, machine: context.machine, seq: seq, keys: context.ring)
        } catch RecordError.unknownKey {
            outcome.pending.append(.unknownKey(path: path))
            return nil
        } catch RecordError.unsupportedVersion(let version) {
            outcome.findings.append(.recordOfNewerVersion(path: path, version: version))
            return nil
        } catch RecordError.otherVault(let other) {
            outcome.findings.append(.recordOfOtherVault(path: path, vault: other))
            return nil
        } catch {
            outcome.findings.append(.recordNotAuthentic(path: path, fault: Self.fault(error)))
            return nil
        }
        record.machine = context.machine
        let expected = seq == 1 ? [UInt8](repeating: 0, count: RecordCodec.hashLength) : log.records[Int(seq - 2)].hash
        guard record.previous == expected else {
            outcome.findings.append(.recordOutOfChain(path: path, previousSeq: seq - 1))
            return nil
        }
        guard record.lamport > log.lamport else {
            outcome.findings.append(.recordNotAuthentic(path: path, fault: .lamportOutOfRange))
            return nil
        }
        // The join that got its machine admitted: written before it was a member, under the key
        // it names (the one the admit statement took in).
        if let join = record.join {
            guard seq == 1, join.publicKey == signer.publicKey, context.ring[record.keyID] != nil else {
                outcome.findings.append(.recordUnvouched(path: path))
                return nil
            }
            return record
        }
        guard let epoch = context.chain.statement(hash: record.epochHash), epoch.seq == record.epochSeq else {
            if record.epochSeq > context.chain.head?.seq ?? 0 {
                outcome.pending.append(.unknownKey(path: path))
            } else {
                outcome.findings.append(.recordUnvouched(path: path))
            }
            return nil
        }
        guard epoch.keyID == record.keyID, epoch.member(context.machine) != nil, record.epochSeq >= log.epoch else {
            outcome.findings.append(.recordUnvouched(path: path))
            return nil
        }
        return record
    }

    /// The clear prefix first (FORMAT.md §12.7, rule 1): another vault's record, or one of a
    /// version this diary does not read, is named so before its signature is looked at.
    private func prefixFits(_ bytes: [UInt8], at path: String, into outcome: inout Outcome) -> Bool {
        do {
            let clear = try RecordCodec.peek(bytes)
            guard clear.vaultID == vaultID else {
                outcome.findings.append(.recordOfOtherVault(path: path, vault: clear.vaultID))
                return false
            }
            return true
        } catch RecordError.unsupportedVersion(let version) {
            outcome.findings.append(.recordOfNewerVersion(path: path, version: version))
        } catch {
            outcome.findings.append(.recordNotAuthentic(path: path, fault: Self.fault(error)))
        }
        return false
    }

    /// The log of a machine that is not a member: its first record must be a join, signed by the
    /// key it carries (pending until a member admits it); anything else is unvouched.
    func readJoin(_ context: LogContext, log: LogState, seqs: Set<UInt64>, into outcome: inout Outcome) {
        guard seqs.contains(1) else { return }
        let path = RemoteLayout.recordPath(machine: context.machine, seq: 1)
        guard let bytes = tree.readIfPossible(path, limit: RecordCodec.maximumFileBytes) else {
            outcome.findings.append(.recordUnreadable(path: path))
            return
        }
        if tidiesCopies, RecordCodec.looksIncomplete(bytes) {
            outcome.pending.append(.stillArriving(path: path, bytes: bytes.count))
            return
        }
        guard
            let record = try? RecordCodec.open(
                bytes, vaultID: vaultID, machine: context.machine, seq: 1, keys: context.ring)
        else {
            // Sealed under a key this machine has not followed yet, or forged: not shown either way.
            outcome.pending.append(.unknownKey(path: path))
            return
        }
        guard let join = record.join, RecordCodec.signatureIsValid(bytes, publicKey: join.publicKey) else {
            outcome.findings.append(.recordUnvouched(path: path))
            return
        }
        outcome.joins.append(Join(machine: context.machine, name: record.machineName, request: join, path: path))
        outcome.notes.append(.awaitingAdmissionOf(machine: record.machineName))
    }

    /// What each new record says its writer had read of other logs must match what this
    /// machine read: otherwise the host showed machines different logs. A record read that this
    /// machine has not is withheld in git (whose trees hold what their writers read), and on its
    /// way in a synced folder.
    func checkVectors(
        of records: [Found], against logs: [UUID: LogState], chain: ChainState, into outcome: inout Outcome
    ) {
        for found in records {
            for mark in found.record.vector where mark.machine != found.record.machine && mark.seq > 0 {
                // Past a removed machine's cut nothing is read here; its writer may not have known.
                if let cut = chain.removal(of: mark.machine), mark.seq > cut.seq { continue }
                let path = RemoteLayout.recordPath(machine: found.record.machine, seq: found.record.seq)
                guard let log = logs[mark.machine], log.seen >= mark.seq else {
                    // There but not read yet (a key to follow, a join to admit): pending.
                    let wanted = RemoteLayout.recordPath(machine: mark.machine, seq: mark.seq)
                    let name = logs[mark.machine]?.name ?? RemoteLayout.placeholderName(mark.machine)
                    if tree.stamp(wanted) != nil {
                        continue
                    } else if tidiesCopies {
                        outcome.notes.append(
                            .readElsewhereNotHere(machine: name, seq: mark.seq, by: found.record.machineName))
                    } else {
                        outcome.findings.append(.recordWithheld(path: path, machine: name, seq: mark.seq))
                    }
                    continue
                }
                if log.records[Int(mark.seq - 1)].hash != mark.hash {
                    outcome.findings.append(.logsDisagree(path: path, machine: log.name, seq: mark.seq))
                }
            }
        }
    }
}
