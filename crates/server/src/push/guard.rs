//! Where the server may send a push: the guard against a subscription that
//! points the server into its own network (a blind SSRF).
//!
//! A browser's subscription names an endpoint, and anyone may subscribe, so
//! the endpoint is an address an attacker chooses. Its spelling is checked
//! when it is stored ([`endpoint`]): `https`, a host name (no address
//! literal, no trailing dot, no name of this machine or network), port 443.
//! That alone is not enough: `127.0.0.1.nip.io` is spelled like any public
//! name. So the address is checked again when the server connects: the
//! push client's resolver ([`Resolver`]) answers only addresses that are
//! public unicast ([`public_unicast`]) or in a network the operator
//! allowed, and the client connects to exactly what the resolver answered
//! (no second lookup an attacker's DNS could change in between).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

/// Push settings, from `agon serve`'s flags.
#[derive(Clone, Debug, Default)]
pub struct PushOptions {
    /// Tests only: accept endpoints on plain `http://` and on address
    /// literals (a test's own push service). The address rule still holds:
    /// a test must also allow its network (`allow_networks`). Off, only
    /// `https://` endpoints on host names are taken.
    pub insecure_endpoints: bool,
    /// Networks the server may push to besides public unicast addresses (a
    /// push service inside the operator's own network).
    pub allow_networks: Vec<ipnet::IpNet>,
    /// The ports an endpoint may name besides 443.
    pub allow_ports: Ports,
    /// Host names answered with a fixed address instead of a lookup (the
    /// answer is checked like any lookup's).
    pub resolve: Vec<Pinned>,
    /// The contact the push services see (`sub` of the VAPID claims): a
    /// `mailto:` or `https:` address.
    pub contact: Option<String>,
}

/// Why a subscription is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadSubscription(pub String);

/// The ports an endpoint may name besides 443, push services' only port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Ports {
    /// 443 only.
    #[default]
    Standard,
    /// 443 and these.
    Also(Vec<u16>),
    /// Any port (a test's own push service on a port of its own).
    Any,
}

impl Ports {
    /// Whether an endpoint may name `port`.
    pub fn allows(&self, port: u16) -> bool {
        match self {
            Ports::Standard => port == 443,
            Ports::Also(more) => port == 443 || more.contains(&port),
            Ports::Any => true,
        }
    }
}

impl FromStr for Ports {
    type Err = String;

    /// `any`, or ports separated by commas (`8443,9443`); `443` alone is
    /// the standard.
    fn from_str(text: &str) -> Result<Ports, String> {
        match text.trim() {
            "any" => return Ok(Ports::Any),
            "443" => return Ok(Ports::Standard),
            _ => {}
        }
        text.split(',')
            .map(|p| {
                p.trim()
                    .parse::<u16>()
                    .ok()
                    .filter(|&p| p != 0)
                    .ok_or_else(|| format!("'{p}' is not a port (1 to 65535, or 'any')"))
            })
            .collect::<Result<Vec<u16>, String>>()
            .map(Ports::Also)
    }
}

/// A host name answered with a fixed address instead of a lookup, like
/// curl's `--resolve`: the answer is checked like any lookup's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pinned {
    /// The host name, lower case.
    pub name: String,
    /// Its address.
    pub address: IpAddr,
}

impl FromStr for Pinned {
    type Err = String;

    /// `NAME=ADDRESS`, for example `push.example.test=127.0.0.1`.
    fn from_str(text: &str) -> Result<Pinned, String> {
        let (name, address) = text
            .split_once('=')
            .ok_or_else(|| format!("'{text}' is not NAME=ADDRESS"))?;
        let address = address
            .trim_matches(|c| c == '[' || c == ']')
            .parse()
            .map_err(|_| format!("'{address}' is not an IP address"))?;
        if name.is_empty() {
            return Err(format!("'{text}' names no host"));
        }
        Ok(Pinned {
            name: name.to_ascii_lowercase(),
            address,
        })
    }
}

/// IPv4 networks that are not public unicast: this network, private
/// (RFC 1918), shared address space (CGNAT, RFC 6598), loopback, link-local
/// (with the cloud metadata address 169.254.169.254), IETF protocol
/// assignments, documentation, the 6to4 relay, benchmarking, multicast,
/// reserved and broadcast.
const NOT_PUBLIC_V4: [(Ipv4Addr, u8); 15] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),
    (Ipv4Addr::new(10, 0, 0, 0), 8),
    (Ipv4Addr::new(100, 64, 0, 0), 10),
    (Ipv4Addr::new(127, 0, 0, 0), 8),
    (Ipv4Addr::new(169, 254, 0, 0), 16),
    (Ipv4Addr::new(172, 16, 0, 0), 12),
    (Ipv4Addr::new(192, 0, 0, 0), 24),
    (Ipv4Addr::new(192, 0, 2, 0), 24),
    (Ipv4Addr::new(192, 88, 99, 0), 24),
    (Ipv4Addr::new(192, 168, 0, 0), 16),
    (Ipv4Addr::new(198, 18, 0, 0), 15),
    (Ipv4Addr::new(198, 51, 100, 0), 24),
    (Ipv4Addr::new(203, 0, 113, 0), 24),
    (Ipv4Addr::new(224, 0, 0, 0), 4),
    (Ipv4Addr::new(240, 0, 0, 0), 4),
];

/// Networks inside IPv6's global unicast block (2000::/3) that are not
/// public unicast: IETF protocol assignments (with Teredo, which carries an
/// IPv4 address), documentation (both prefixes) and 6to4 (which carries
/// one too).
const NOT_PUBLIC_V6: [(Ipv6Addr, u8); 4] = [
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23),
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32),
    (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16),
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20),
];

/// Whether `ip` is a public unicast address: one a push service may have.
/// Refused: loopback, private, link-local, CGNAT, multicast, unique-local,
/// documentation, IPv4 mapped or embedded in IPv6 (mapped, compatible,
/// NAT64, 6to4, Teredo) and the metadata address. IPv6 is taken only from
/// the global unicast block 2000::/3, so what a future standard carves out
/// of the rest is refused from the start.
pub fn public_unicast(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let bits = u32::from(v4);
            !NOT_PUBLIC_V4.iter().any(|&(net, len)| {
                let mask = u32::MAX << (32 - u32::from(len));
                bits & mask == u32::from(net) & mask
            })
        }
        IpAddr::V6(v6) => {
            let bits = u128::from(v6);
            let global = bits >> 125 == 0b001;
            global
                && !NOT_PUBLIC_V6.iter().any(|&(net, len)| {
                    let mask = u128::MAX << (128 - u32::from(len));
                    bits & mask == u128::from(net) & mask
                })
        }
    }
}

/// Whether the server may connect to `ip`: public unicast, or inside a
/// network the operator allowed.
pub fn allowed_address(ip: IpAddr, allowed: &[ipnet::IpNet]) -> bool {
    public_unicast(ip) || allowed.iter().any(|net| net.contains(&ip))
}

/// Names that are this machine's or this network's, whatever they resolve
/// to: refused when a subscription is made (the address check at sending
/// would refuse them too; this says why at once).
const LOCAL_SUFFIXES: [&str; 8] = [
    ".localhost",
    ".local",
    ".internal",
    ".localdomain",
    ".lan",
    ".home.arpa",
    ".svc",
    ".intranet",
];

/// An endpoint checked by its spelling: an `https` URL on a host name with
/// a dot and no trailing dot, not a name of this machine or network, on a
/// port the options allow (443 unless the operator allows more), with no
/// user name, at most 1,024 characters. With `insecure_endpoints` (tests
/// only), `http` and address literals are taken too, but an address
/// literal must still pass the address rule (the resolver never sees it).
///
/// # Errors
/// It is not one.
pub fn endpoint(text: &str, options: &PushOptions) -> Result<reqwest::Url, BadSubscription> {
    if text.len() > 1024 {
        return Err(BadSubscription(
            "the endpoint is longer than 1,024 characters".into(),
        ));
    }
    let url = reqwest::Url::parse(text)
        .map_err(|e| BadSubscription(format!("the endpoint is not a URL: {e}")))?;
    let insecure = options.insecure_endpoints;
    let scheme_ok = url.scheme() == "https" || (insecure && url.scheme() == "http");
    let host_ok = match url.host() {
        Some(url::Host::Domain(d)) => {
            d.contains('.') && !d.ends_with('.') && !LOCAL_SUFFIXES.iter().any(|s| d.ends_with(s))
        }
        Some(url::Host::Ipv4(ip)) => {
            insecure && allowed_address(IpAddr::V4(ip), &options.allow_networks)
        }
        Some(url::Host::Ipv6(ip)) => {
            insecure && allowed_address(IpAddr::V6(ip), &options.allow_networks)
        }
        None => false,
    };
    if !scheme_ok || !host_ok || !url.username().is_empty() || url.password().is_some() {
        return Err(BadSubscription(
            "the endpoint must be an https address of a push service".into(),
        ));
    }
    match url.port_or_known_default() {
        Some(port) if options.allow_ports.allows(port) => Ok(url),
        _ => Err(BadSubscription(
            "the endpoint must be on port 443, a push service's port".into(),
        )),
    }
}

/// A name whose addresses are all refused: the push is not sent, and the
/// subscription is forgotten.
#[derive(Debug, thiserror::Error)]
#[error("the push endpoint's host resolves to no public address")]
pub struct Refused;

/// The push client's resolver: looks a name up (or takes its pinned
/// address) and answers only the addresses the server may connect to. The
/// client connects to exactly these, so a name cannot be checked against
/// one answer and connected to another.
pub struct Resolver {
    pinned: HashMap<String, Vec<IpAddr>>,
    allowed: Vec<ipnet::IpNet>,
}

impl Resolver {
    /// A resolver with the options' pinned names and allowed networks.
    pub fn new(options: &PushOptions) -> Resolver {
        let mut pinned: HashMap<String, Vec<IpAddr>> = HashMap::new();
        for p in &options.resolve {
            pinned.entry(p.name.clone()).or_default().push(p.address);
        }
        Resolver {
            pinned,
            allowed: options.allow_networks.clone(),
        }
    }
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_ascii_lowercase();
        let pinned = self.pinned.get(&host).cloned();
        let allowed = self.allowed.clone();
        Box::pin(async move {
            let found: Vec<IpAddr> = match pinned {
                Some(addresses) => addresses,
                None => tokio::net::lookup_host((host.as_str(), 0))
                    .await?
                    .map(|a| a.ip())
                    .collect(),
            };
            let kept: Vec<SocketAddr> = found
                .into_iter()
                .filter(|&ip| allowed_address(ip, &allowed))
                .map(|ip| SocketAddr::new(ip, 0))
                .collect();
            if kept.is_empty() {
                return Err(Box::new(Refused) as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(kept.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// Whether a send failed because the resolver refused every address.
pub fn refused(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if e.is::<Refused>() {
            return true;
        }
        cause = e.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::push::PushOptions;

    #[test]
    fn only_public_unicast_addresses_pass_the_address_rule() {
        for bad in [
            "0.0.0.0",
            "10.1.2.3",
            "100.64.0.1",
            "100.127.255.254",
            "100.100.100.200", // a cloud's metadata address, in CGNAT space
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254", // the cloud metadata address
            "169.254.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1", // mapped IPv4
            "::ffff:8.8.8.8",   // mapped, even of a public address
            "::127.0.0.1",      // IPv4-compatible
            "64:ff9b::a00:1",   // NAT64 of 10.0.0.1
            "fc00::1",
            "fd00:ec2::254", // a cloud's IPv6 metadata address
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "2001::1",        // Teredo
            "2002:7f00:1::1", // 6to4 of 127.0.0.1
            "3fff::1",
            "100::1",
        ] {
            let ip: IpAddr = bad.parse().unwrap();
            assert!(!public_unicast(ip), "{bad} must be refused");
        }
        for good in [
            "8.8.8.8",
            "1.1.1.1",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "142.250.74.46",
            "2a00:1450:4001:82b::200a",
            "2606:4700:4700::1111",
        ] {
            let ip: IpAddr = good.parse().unwrap();
            assert!(public_unicast(ip), "{good} must pass");
        }
        let lan: Vec<ipnet::IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        assert!(allowed_address("10.9.9.9".parse().unwrap(), &lan));
        assert!(!allowed_address("192.168.0.1".parse().unwrap(), &lan));
    }

    #[test]
    fn only_https_push_services_on_public_names_and_port_443_are_taken() {
        let strict = PushOptions::default();
        assert!(endpoint("https://fcm.googleapis.com/fcm/send/x", &strict).is_ok());
        assert!(endpoint("https://fcm.googleapis.com:443/x", &strict).is_ok());
        for bad in [
            "http://fcm.googleapis.com/x",
            "https://localhost/x",
            "https://localhost./x",
            "https://fcm.googleapis.com./x",
            "https://127.0.0.1/x",
            "https://2130706433/x", // 127.0.0.1 spelt as one number
            "https://192.168.1.2/x",
            "https://[::1]/x",
            "https://[::ffff:7f00:1]/x",
            "https://printer.local/x",
            "https://kubernetes.default.svc/x",
            "https://router.home.arpa/x",
            "https://fcm.googleapis.com:8443/x",
            "https://fcm.googleapis.com:18899/x",
            "https://user:pw@push.example.com/x",
            "ftp://push.example.com/x",
        ] {
            assert!(endpoint(bad, &strict).is_err(), "{bad}");
        }
        let more = PushOptions {
            allow_ports: "8443".parse().unwrap(),
            ..PushOptions::default()
        };
        assert!(endpoint("https://push.example.com:8443/x", &more).is_ok());
        assert!(endpoint("https://push.example.com:8444/x", &more).is_err());
        // The test setting takes plain http and address literals, but an
        // address still has to pass the rule or be allowed.
        let tests = PushOptions {
            insecure_endpoints: true,
            allow_ports: Ports::Any,
            ..PushOptions::default()
        };
        assert!(endpoint("http://127.0.0.1:9/x", &tests).is_err());
        let loopback = PushOptions {
            allow_networks: vec!["127.0.0.0/8".parse().unwrap()],
            ..tests
        };
        assert!(endpoint("http://127.0.0.1:9/x", &loopback).is_ok());
        assert!(endpoint("http://[::1]:9/x", &loopback).is_err());
    }

    #[test]
    fn ports_and_pinned_names_are_read_from_their_flags() {
        assert_eq!("any".parse::<Ports>(), Ok(Ports::Any));
        assert_eq!(
            "8443, 9443".parse::<Ports>(),
            Ok(Ports::Also(vec![8443, 9443]))
        );
        assert!("0".parse::<Ports>().is_err());
        assert!("x".parse::<Ports>().is_err());
        assert_eq!(
            "Push.Example.test=[::1]".parse::<Pinned>(),
            Ok(Pinned {
                name: "push.example.test".into(),
                address: "::1".parse().unwrap()
            })
        );
        assert!("push.example.test".parse::<Pinned>().is_err());
        assert!("=127.0.0.1".parse::<Pinned>().is_err());
        assert!("a.test=localhost".parse::<Pinned>().is_err());
    }
}
