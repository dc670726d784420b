import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// The iOS app a site's links open.
public struct AppConfiguration: Sendable, Equatable {
    /// Display name, used on pages ("Open in Rowhni").
    public var name: String
    /// `<team ID>.<bundle ID>` identifiers, as in the AASA file.
    public var appIDs: [String]
    /// The numeric App Store id (for the store button and Smart App Banner), if the app is listed.
    public var appStoreID: String?
    /// Where "Get <App>" leads when there is no App Store id (a search, a TestFlight invitation).
    public var appStoreURL: String?
    /// The custom URL scheme (`rowhni`, `awful`) without `://`.
    public var scheme: String
    /// The Android app (`app.android`): served as assetlinks.json and offered to Android visitors.
    public var android: AndroidAppConfiguration?

    public init(name: String, appIDs: [String], appStoreID: String? = nil, appStoreURL: String? = nil, scheme: String, android: AndroidAppConfiguration? = nil)
    {
        self.name = name
        self.appIDs = appIDs
        self.appStoreID = appStoreID
        self.appStoreURL = appStoreURL
        self.scheme = scheme
        self.android = android
    }

    /// The store page: from the App Store id when given, else `appStoreURL`.
    public var storeURL: String? {
        if let appStoreID { return "https://apps.apple.com/app/id\(appStoreID)" }
        return appStoreURL
    }
}

/// The Android app of a site (`app.android`): what its assetlinks.json says and where Android
/// visitors get the app.
public struct AndroidAppConfiguration: Sendable, Equatable {
    /// The applicationId (`com.yaman.rowhni`).
    public var packageName: String
    /// SHA-256 fingerprints of the certificates the app is signed with, upper-case hex with colons.
    public var fingerprints: [String]
    /// `app.android.playURL`, when the config gives one.
    public var playURL: String?

    public init(packageName: String, fingerprints: [String], playURL: String? = nil) {
        self.packageName = packageName
        self.fingerprints = fingerprints
        self.playURL = playURL
    }

    /// Where "Get <App>" leads an Android visitor: `playURL`, else the package's Google Play page.
    public var storeURL: String {
        playURL ?? "https://play.google.com/store/apps/details?id=\(packageName)"
    }
}
