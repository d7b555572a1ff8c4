import DiaryApp
import DiarySync

/// An invite code typed on the command line.
enum InviteCodeInput {
    /// The code, or a refusal in diary's own words (not ArgumentParser's, which would add the
    /// top-level usage to an error about the code).
    static func parse(_ text: String) throws -> InviteCode {
        do {
            return try InviteCode(text: text)
        } catch InviteCodeError.badChecksum {
            throw CLIError.badInviteCode(mistyped: true)
        } catch {
            throw CLIError.badInviteCode(mistyped: false)
        }
    }
}
