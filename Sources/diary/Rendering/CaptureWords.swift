import DiaryApp
import Foundation

/// The words for capture: what an inbox's take-in did, and why an item was refused.
enum CaptureWords {
    static func say(_ event: AppEvent) {
        switch event {
        case .capturesTakenIn(let device, let count):
            Output.note("took in \(count) captured entr\(count == 1 ? "y" : "ies") from \(device)")
        case .captureMovedAside(let rejection):
            Output.warning("moved aside \(describe(rejection.outcome)): \(rejection.path)")
        case .captureInboxWaiting(let path?, let detail):
            Output.warning(
                "captured entries could not be taken in now (\(Printable.escaped(path)): \(detail)); "
                    + "they wait in the inbox")
        case .captureInboxWaiting(nil, let detail):
            Output.warning("captured entries could not be taken in now (\(detail)); they wait in the inbox")
        case .capturesWaiting(let count):
            Output.warning(
                "\(count) captured item\(count == 1 ? "" : "s") of a device this vault does not know yet "
                    + "wait\(count == 1 ? "s" : "") in inbox/ (taken in once its enrolment arrives by sync)")
            Output.hint("items no enrolment will bring stay there until you move them out of inbox/")
        default:
            break  // `AppEventWords.say` hands only the cases above to this function
        }
    }

    /// "a replayed capture from phone (number 5)", "a capture of a revoked device, phone (number 2)".
    static func describe(_ outcome: CaptureOutcome) -> String {
        switch outcome {
        case .added(_, let device, let counter): "a capture from \(device) (number \(counter))"
        case .replay(let device, let counter): "a replayed capture from \(device) (number \(counter))"
        case .revoked(let device, let counter): "a capture from \(device), a revoked device (number \(counter))"
        case .unknownDevice: "a capture from a device this vault does not know"
        case .otherVault(let id): "a capture for another vault (\(id.uuidString.lowercased()))"
        case .damaged(let device?, let reason): "a damaged capture from \(device) (\(reason))"
        case .damaged(nil, let reason): "a damaged capture (\(reason))"
        }
    }
}
