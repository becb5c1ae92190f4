"""The network: wire protocol, the authoritative host, the client, discovery."""
