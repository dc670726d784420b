/// The relations a statement of assetlinks.json grants; Android and Google's services act on these.
public enum AssetLinksRelation {
    /// The app may open the site's links without asking (Android App Links).
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// The app and the site share saved sign-in credentials.
    public static let getLoginCredentials = "delegate_permission/common.get_login_creds"

    public static let known = [handleAllURLs, getLoginCredentials]
}
