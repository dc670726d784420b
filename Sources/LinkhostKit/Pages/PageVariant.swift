import LinkLog

/// Which version of a fallback page a visitor gets, from the User-Agent.
enum PageVariant: Hashable, Sendable {
    /// The App Store page: iPhone and iPad, and everyone not recognised as Android or a computer
    /// (link previews, crawlers, curl).
    case standard
    /// A Google Play button and an `intent://` open link: Android browsers and in-app browsers on
    /// Android, on sites whose app has an Android block.
    case android
    /// The app is not made for the visitor's phone: an Android visitor of a site whose app has no
    /// Android block. No store or open button (the App Store and the iOS app's scheme do nothing
    /// there); a line saying the app is for iPhone and iPad, and the link to copy and carry over.
    /// The mirror case, an iPhone visitor of an Android-only app, cannot arise: `app.appIDs` is
    /// required, since the AASA file is what the site serves.
    case otherPlatform
    /// The standard page plus a QR code of the link, to carry it to a phone: browsers on computers.
    /// (iPadOS Safari presents itself as a Mac and gets this too; the QR code does it no harm.)
    case desktop

    /// The variant for a visitor of `clientClass` (classified from `userAgent`, which in-app
    /// browsers are read again for their platform).
    static func choose(clientClass: ClientClass, userAgent: String?, siteHasAndroidApp: Bool) -> PageVariant {
        switch clientClass {
        case .android:
            return siteHasAndroidApp ? .android : .otherPlatform
        case .desktop:
            return .desktop
        case .inAppBrowser:
            // Instagram, Facebook and friends on Android say so; their pages follow the phone's platform.
            guard let userAgent, userAgent.lowercased().contains("android") else { return .standard }
            return siteHasAndroidApp ? .android : .otherPlatform
        case .ios, .aasaBot, .appleCFNetwork, .linkPreview, .bot, .unknown:
            return .standard
        }
    }
}
