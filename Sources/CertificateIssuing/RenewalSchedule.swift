import Foundation

/// When a certificate is renewed: `daysBefore` its expiry when set, else at two thirds of its
/// lifetime (Let's Encrypt's advice: 30 days before the end of a 90-day certificate), and never
/// later than the end itself.
public enum RenewalSchedule {
    public static func renewal(notBefore: Date, notAfter: Date, daysBefore: Int?) -> Date {
        let lifetime = notAfter.timeIntervalSince(notBefore)
        if let daysBefore {
            // A lifetime shorter than the margin renews at two thirds instead of at once forever.
            let margin = TimeInterval(daysBefore) * 86_400
            if margin < lifetime { return notAfter.addingTimeInterval(-margin) }
        }
        return notBefore.addingTimeInterval(max(0, lifetime) * 2 / 3)
    }
}
