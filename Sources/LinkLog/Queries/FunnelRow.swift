/// One group of `LogReader.funnel`: how many people saw a fallback page, what they clicked on it, and
/// how many app opens followed. Rates are shares of `views`, `nil` when there were no views.
public struct FunnelRow: Sendable, Equatable {
    /// The group's value (a campaign, a rule, a day, …); `nil` for rows without one, or when the
    /// funnel is not grouped.
    public var key: String?
    /// Fallback pages served with status 200 (kind `fallback`) to people: link previews, crawlers
    /// and Apple's fetchers (`ClientClass.notPeople`) are left out, and counted in `previews`.
    public var views: Int
    /// "Open in the app" clicks reported by a page (kind `event`, event `open-app`).
    public var openClicks: Int
    /// App Store clicks reported by a page (event `store`).
    public var storeClicks: Int
    /// Code copies reported by a page (event `copy`).
    public var copies: Int
    /// Times the app reported it was opened with a link (kind `app_open`), by the open's own fields.
    public var appOpens: Int
    /// App opens paired with a view within `pairingWindowMilliseconds` (by the view's token, or by
    /// the same invite code, site and rule), each filed under the group of its view.
    public var opensAfterView: Int
    /// Of those, opens through the page's own "Open in …" button (`custom-scheme`): the person had
    /// the app, yet the link showed the web page — a Universal Link that did not open the app.
    public var bypassOpens: Int
    /// Of those, opens by a link the app found after it was installed (`pasteboard`,
    /// `install-referrer`): the app was installed after the view.
    public var installs: Int
    /// Fallback pages served with status 200 to a link preview, a crawler or one of Apple's
    /// fetchers: no person saw them, so no rate counts them.
    public var previews: Int

    /// How long before an app open a view may have been and still count as what led to it: 7 days.
    public static let pairingWindowMilliseconds: Int64 = 7 * 86_400_000

    /// A group and its counts.
    public init(
        key: String?, views: Int, openClicks: Int, storeClicks: Int, copies: Int, appOpens: Int, opensAfterView: Int, bypassOpens: Int = 0,
        installs: Int = 0, previews: Int = 0
    ) {
        self.key = key
        self.views = views
        self.openClicks = openClicks
        self.storeClicks = storeClicks
        self.copies = copies
        self.appOpens = appOpens
        self.opensAfterView = opensAfterView
        self.bypassOpens = bypassOpens
        self.installs = installs
        self.previews = previews
    }

    /// `openClicks / views`.
    public var openClickRate: Double? { share(openClicks) }
    /// `storeClicks / views`.
    public var storeClickRate: Double? { share(storeClicks) }
    /// `copies / views`.
    public var copyRate: Double? { share(copies) }
    /// `opensAfterView / views`.
    public var opensAfterViewRate: Double? { share(opensAfterView) }
    /// `bypassOpens / views`.
    public var bypassRate: Double? { share(bypassOpens) }
    /// `installs / views`.
    public var installRate: Double? { share(installs) }

    /// The app opens' `event` values that make a paired open a bypass open, and an install. (One
    /// bypass event: the index of bypass opens, `hits_bypass_time`, is on exactly that value.)
    public static let bypassEvents = ["custom-scheme"]
    public static let installEvents = ["pasteboard", "install-referrer"]

    private func share(_ count: Int) -> Double? {
        views == 0 ? nil : Double(count) / Double(views)
    }
}
