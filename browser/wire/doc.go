// Package wire is what goes between a fetcher and the network, as it goes
// over the wire: the forward proxy Chromium connects through (every
// connection made by the caller's dialer, the target guard; responses
// bounded; the start of HTML documents kept), and the recording of HTTP
// exchanges as they were exchanged (request as written, response head in
// the server's order and case, payload as served, the address connected
// to), through that proxy (HTTPS too, by ending the browser's TLS with a
// certificate only that browser accepts) or through a plain client's
// transport (Recorder.Transport). Package browser renders and fetches
// pages with it.
package wire
