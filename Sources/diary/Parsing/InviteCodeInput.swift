import ArgumentParser
import DiaryApp
import DiarySync

/// An invite code typed on the command line.
enum InviteCodeInput {
    static func parse(_ text: String) throws -> InviteCode {
        do {
            return try InviteCode(text: text)
        } catch InviteCodeError.badChecksum {
            throw ValidationError(
                "that invite code has a wrong character or two swapped ones; copy it again from `diary sync invite`")
        } catch {
            throw ValidationError("that is not an invite code; `diary sync invite` on a machine that syncs prints one")
        }
    }
}
