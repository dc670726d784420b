import Crypto
import Foundation
import Glibc
import SwiftASN1
import X509

/// A private certificate authority for testing on a device: made once, kept in a folder, installed
/// and trusted on the iPhone, then used to sign a certificate for each host linkhost serves there.
///
/// Keys are ECDSA P-256 (what iOS, GnuTLS and every client accept). The CA is limited to signing
/// end-entity certificates (path length 0). Its key file is written with mode 0600.
public struct DevCertificateAuthority: Sendable {
    public static let certificateFileName = "linkhost-dev-ca.pem"
    public static let keyFileName = "linkhost-dev-ca-key.pem"
    /// The same certificate in DER form, the easiest to AirDrop or mail to an iPhone.
    public static let phoneFileName = "linkhost-dev-ca.crt"

    public let certificate: Certificate
    let privateKey: Certificate.PrivateKey

    /// Loads the CA from `folder`, or makes a new one there when none exists.
    /// - Returns: the CA and whether it was created now.
    public static func loadOrCreate(in folder: String, now: Date = Date()) throws(DevCertificateError) -> (DevCertificateAuthority, created: Bool) {
        let certificatePath = (folder as NSString).appendingPathComponent(certificateFileName)
        let keyPath = (folder as NSString).appendingPathComponent(keyFileName)
        let manager = FileManager.default
        if manager.fileExists(atPath: certificatePath) || manager.fileExists(atPath: keyPath) {
            return (try load(certificatePath: certificatePath, keyPath: keyPath), false)
        }
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName {
                OrganizationName("linkhost")
                CommonName("linkhost development CA \(Self.shortStamp(now))")
            }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(10 * 365 * 86400),
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
                },
                issuerPrivateKey: Certificate.PrivateKey(key)
            )
            try PEMFiles.write(try certificate.serializeAsPEM().pemString + "\n", to: certificatePath, privateFile: false)
            try PEMFiles.write(key.pemRepresentation + "\n", to: keyPath, privateFile: true)
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            try Data(serializer.serializedBytes).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(phoneFileName)))
            return (DevCertificateAuthority(certificate: certificate, privateKey: Certificate.PrivateKey(key)), true)
        } catch let error as DevCertificateError {
            throw error
        } catch {
            throw DevCertificateError("cannot create the CA in \(folder): \(error)")
        }
    }

    private static func load(certificatePath: String, keyPath: String) throws(DevCertificateError) -> DevCertificateAuthority {
        guard let certificateText = try? String(contentsOfFile: certificatePath, encoding: .utf8) else {
            throw DevCertificateError("\(keyPath) exists but \(certificatePath) cannot be read; remove both to make a new CA")
        }
        guard let keyText = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
            throw DevCertificateError("\(certificatePath) exists but \(keyPath) cannot be read; remove both to make a new CA")
        }
        do {
            let certificate = try Certificate(pemEncoded: certificateText)
            let key = try P256.Signing.PrivateKey(pemRepresentation: keyText)
            guard Certificate.PublicKey(key.publicKey) == certificate.publicKey else {
                throw DevCertificateError("\(keyPath) is not the key of \(certificatePath); remove both to make a new CA")
            }
            return DevCertificateAuthority(certificate: certificate, privateKey: Certificate.PrivateKey(key))
        } catch let error as DevCertificateError {
            throw error
        } catch {
            throw DevCertificateError("cannot read the CA in \(certificatePath): \(error)")
        }
    }

    /// Issues a server certificate for `hosts` (DNS names and IP addresses), valid for 397 days:
    /// under the 825 days iOS allows for certificates from a user-installed CA.
    public func issue(hosts: [String], now: Date = Date()) throws(DevCertificateError) -> DevHostCertificate {
        guard let first = hosts.first else { throw DevCertificateError("give at least one host") }
        do {
            let key = P256.Signing.PrivateKey()
            var names: [GeneralName] = []
            for host in hosts {
                if let address = IPAddressBytes.parse(host) {
                    names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(address))))
                } else {
                    names.append(.dnsName(host))
                }
            }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(397 * 86400),
                issuer: self.certificate.subject,
                subject: try DistinguishedName {
                    OrganizationName("linkhost development")
                    CommonName(first)
                },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                    SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
                    AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: privateKey.publicKey).keyIdentifier)
                },
                issuerPrivateKey: privateKey
            )
            let chain = try certificate.serializeAsPEM().pemString + "\n" + self.certificate.serializeAsPEM().pemString + "\n"
            return DevHostCertificate(hosts: hosts, certificateChainPEM: chain, privateKeyPEM: key.pemRepresentation + "\n")
        } catch {
            throw DevCertificateError("cannot issue a certificate for \(hosts.joined(separator: ", ")): \(error)")
        }
    }

    /// The DNS names the first certificate of `chainPEM` is for (its subject alternative names);
    /// `nil` when it cannot be read or names none. What a server says it can be reached as over
    /// HTTPS.
    public static func hostNames(inCertificateChainPEM chainPEM: String) -> [String]? {
        // The file holds the chain (the host's certificate, then the CA's): the first is the host's.
        guard let document = try? PEMDocument.parseMultiple(pemString: chainPEM).first, let first = try? Certificate(pemDocument: document),
            let names = try? first.extensions.subjectAlternativeNames
        else { return nil }
        let hosts = names.compactMap { name -> String? in
            if case .dnsName(let host) = name { return host.lowercased() }
            return nil
        }
        return hosts.isEmpty ? nil : hosts
    }

    /// Whether a certificate for `names` covers `host` (a `*.` name covers one label, RFC 6125 §6.4.3).
    public static func names(_ names: [String], cover host: String) -> Bool {
        let host = host.lowercased()
        return names.contains { name in
            if name == host { return true }
            guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
            return host[dot...] == name.dropFirst(1) && host[..<dot].count > 0
        }
    }

    private static func shortStamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}

/// Writes certificate and key files; key files are readable by their owner only.
enum PEMFiles {
    static func write(_ text: String, to path: String, privateFile: Bool) throws(DevCertificateError) {
        let created = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8),
            attributes: [.posixPermissions: privateFile ? 0o600 : 0o644]
        )
        guard created else { throw DevCertificateError("cannot write \(path)") }
        if privateFile {
            // createFile keeps an existing file's mode; make sure a key is never left readable.
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
    }
}

/// An IP literal as the bytes a certificate's `iPAddress` name holds; `nil` for host names.
enum IPAddressBytes {
    static func parse(_ text: String) -> [UInt8]? {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            return withUnsafeBytes(of: &ipv4) { Array($0) }
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 {
            return withUnsafeBytes(of: &ipv6) { Array($0) }
        }
        return nil
    }
}

/// A host certificate and its key, as PEM text.
public struct DevHostCertificate: Sendable {
    public let hosts: [String]
    /// The host certificate followed by the CA certificate.
    public let certificateChainPEM: String
    public let privateKeyPEM: String

    /// Writes `<name>.pem` and `<name>-key.pem` (0600) into `folder`; returns their paths.
    public func write(to folder: String, name: String) throws(DevCertificateError) -> (certificate: String, key: String) {
        let certificatePath = (folder as NSString).appendingPathComponent("\(name).pem")
        let keyPath = (folder as NSString).appendingPathComponent("\(name)-key.pem")
        try PEMFiles.write(certificateChainPEM, to: certificatePath, privateFile: false)
        try PEMFiles.write(privateKeyPEM, to: keyPath, privateFile: true)
        return (certificatePath, keyPath)
    }
}

/// Why a development certificate could not be made.
public struct DevCertificateError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
