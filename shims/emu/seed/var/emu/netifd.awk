# The emulated router's netifd state, as `ubus call network.interface dump` (only="") or
# `ubus call network.interface.<only> status` shows it, derived from etc/config/network so that it
# follows every write: an interface is up unless `disabled '1'` or var/emu/netifd/<name>.down exists.
# An up interface carries the lists netifd's ubus.c netifd_dump_status gives one: what the
# configuration gives it (static addresses, wireguard `addresses`, `ip6prefix`, the default routes of
# `gateway` and `ip6gw`, the route/route6 sections naming it, `dns`, `dns_search`) and, with
# `ip6assign`, a subnet of each IPv6 prefix (the ULA prefix of `globals`, every interface's
# `ip6prefix`) as netifd assigns them (assign()), with the router's address ::1 in it. What a dynamic protocol learned (dhcp, dhcpv6, pppoe) comes from
# var/emu/netifd/<name>.learned instead, JSON members spliced in as they are.
function unquote(text) {
	sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
	if (text ~ /^'.*'$/ || text ~ /^".*"$/) text = substr(text, 2, length(text) - 2)
	return text
}
function bits(mask,    parts, n, i, count, byte) {
	if (mask ~ /^[0-9]+$/) return mask + 0
	n = split(mask, parts, "."); count = 0
	for (i = 1; i <= n; i++) { byte = parts[i] + 0; while (byte >= 128) { count++; byte = (byte * 2) % 256 } }
	return count
}
# A marker file, opened rather than tested by a shell: system() cost each interface of a dump a fork.
function exists(path,    line, found) { found = (getline line < path) >= 0; close(path); return found }
function learned(name,    path, line, text) {
	path = state "/" name ".learned"; text = ""
	while ((getline line < path) > 0) text = text line
	close(path)
	return text
}
function hex(text,    i, value) {
	value = 0; text = tolower(text)
	for (i = 1; i <= length(text); i++) value = value * 16 + index("0123456789abcdef", substr(text, i, 1)) - 1
	return value
}
# The eight 16-bit groups of an IPv6 address into g[1..8].
function groups(address, g,    halves, left, right, nl, nr, i) {
	for (i = 1; i <= 8; i++) g[i] = 0
	if (index(address, "::")) { halves[1] = substr(address, 1, index(address, "::") - 1); halves[2] = substr(address, index(address, "::") + 2) }
	else { halves[1] = address; halves[2] = "" }
	nl = halves[1] == "" ? 0 : split(halves[1], left, ":")
	nr = halves[2] == "" ? 0 : split(halves[2], right, ":")
	for (i = 1; i <= nl; i++) g[i] = hex(left[i])
	for (i = 1; i <= nr; i++) g[8 - nr + i] = hex(right[i])
}
# inet_ntop's text of g[1..8]: the longest run of two or more zero groups as `::`.
function text6(g,    i, best, length_, run, out) {
	best = 0; length_ = 0; run = 0
	for (i = 1; i <= 9; i++) {
		if (i <= 8 && g[i] == 0) { run++; continue }
		if (run > length_ && run >= 2) { length_ = run; best = i - run }
		run = 0
	}
	out = ""
	for (i = 1; i <= 8; i++) {
		if (best && i == best) { out = out "::"; i += length_ - 1; continue }
		out = out (out == "" || out ~ /:$/ ? "" : ":") sprintf("%x", g[i])
	}
	return out
}
function address(ip, mask) { return "{\"address\":\"" ip "\",\"mask\":" mask "}" }
function join(list, item) { return list (list == "" ? "" : ",") item }
# `address[/len]`, the length `fallback` without one: the address in split_ip, the length returned.
function cidr(text, fallback) {
	split_ip = index(text, "/") ? substr(text, 1, index(text, "/") - 1) : text
	return index(text, "/") ? bits(substr(text, index(text, "/") + 1)) : fallback
}
# The subnet `units` /64s into prefix `base` (netifd ORs them into the address's second 32 bits), its
# address in subnet_ip; returned, the router's address ::1 in it.
function subnet(base, units,    g) {
	groups(base, g)
	g[3] += int(units / 65536); g[4] += units % 65536
	subnet_ip = text6(g)
	g[8] += 1
	return text6(g)
}
function free_(p, start, size, space,    k) {
	if (start + size > space) return 0
	for (k = 1; k <= nused[p]; k++) if (start < used_start[p, k] + used_size[p, k] && used_start[p, k] < start + size) return 0
	return 1
}
# before(a, b): whether netifd assigns interface a before b (prefix_assignment_cmp: the larger subnet,
# then the higher ip6weight, then the name).
function before(a, b) {
	if (option[a, "ip6assign"] + 0 != option[b, "ip6assign"] + 0) return option[a, "ip6assign"] + 0 < option[b, "ip6assign"] + 0
	if (option[a, "ip6weight"] + 0 != option[b, "ip6weight"] + 0) return option[a, "ip6weight"] + 0 > option[b, "ip6weight"] + 0
	return a < b
}
# Each prefix's subnets for the interfaces with ip6assign 48-64, as interface-ip.c
# interface_update_prefix_assignments hands them out: an `ip6hint` subnet first when it is free,
# then the others in order (before()), each at the lowest free place of its size.
function assign(    p, i, j, n, name, order, later, nlater, length_, size, space, start) {
	n = 0
	for (i = 1; i <= count; i++) {
		name = names[i]; length_ = option[name, "ip6assign"] + 0
		if (isup[name] && length_ >= 48 && length_ <= 64) order[++n] = name
	}
	for (p = 1; p <= nprefixes; p++) {
		space = 2 ^ (64 - prefix_len[p]); nlater = 0
		for (i = 1; i <= n; i++) {
			name = order[i]; size = 2 ^ (64 - option[name, "ip6assign"])
			start = option[name, "ip6hint"] == "" ? -1 : hex(option[name, "ip6hint"]) % space
			if (start >= 0) start -= start % size
			if (start >= 0 && free_(p, start, size, space)) take(p, name, start, size)
			else {
				for (j = ++nlater; j > 1 && before(name, later[j - 1]); j--) later[j] = later[j - 1]
				later[j] = name
			}
		}
		for (i = 1; i <= nlater; i++) {
			name = later[i]; size = 2 ^ (64 - option[name, "ip6assign"])
			for (start = 0; start + size <= space; start += size) if (free_(p, start, size, space)) { take(p, name, start, size); break }
		}
	}
}
function take(p, name, start, size,    length_, local_) {
	nused[p]++; used_start[p, nused[p]] = start; used_size[p, nused[p]] = size
	length_ = option[name, "ip6assign"] + 0
	local_ = subnet(prefix_ip[p], start)
	assigned[p] = join(assigned[p], "\"" name "\":" address(subnet_ip, length_))
	assignment[name] = join(assignment[name], "{\"address\":\"" subnet_ip "\",\"mask\":" length_ ",\"local-address\":" address(local_, length_) "}")
}
function lists(name, proto,    v4, v6, n, list, i, mask, prefixes, routes, p, r, target, gateway, dns, search) {
	v4 = ""; v6 = ""; prefixes = ""; routes = ""; dns = ""
	if (proto == "static") {
		n = split(option[name, "ipaddr"], list, " ")
		for (i = 1; i <= n; i++) { mask = cidr(list[i], option[name, "netmask"] == "" ? 32 : bits(option[name, "netmask"])); v4 = join(v4, address(split_ip, mask)) }
		n = split(option[name, "ip6addr"], list, " ")
		for (i = 1; i <= n; i++) { mask = cidr(list[i], 128); v6 = join(v6, address(split_ip, mask)) }
		if (option[name, "gateway"] != "") routes = join(routes, "{\"target\":\"0.0.0.0\",\"mask\":0,\"nexthop\":\"" option[name, "gateway"] "\",\"source\":\"0.0.0.0/0\"}")
		if (option[name, "ip6gw"] != "") routes = join(routes, "{\"target\":\"::\",\"mask\":0,\"nexthop\":\"" option[name, "ip6gw"] "\",\"source\":\"::/0\"}")
	}
	if (proto == "wireguard") {
		n = split(option[name, "addresses"], list, " ")
		for (i = 1; i <= n; i++) {
			if (index(list[i], ":")) { mask = cidr(list[i], 128); v6 = join(v6, address(split_ip, mask)) }
			else { mask = cidr(list[i], 32); v4 = join(v4, address(split_ip, mask)) }
		}
	}
	for (p = 1; p <= nprefixes; p++) {
		if (prefix_owner[p] != name) continue
		prefixes = join(prefixes, "{\"address\":\"" prefix_ip[p] "\",\"mask\":" prefix_len[p] ",\"class\":\"" name "\",\"assigned\":{" assigned[p] "}}")
	}
	for (r = 1; r <= nroutes; r++) {
		if (route[r, "interface"] != name || route[r, "disabled"] == "1" || route[r, "disabled"] == "true") continue
		mask = cidr(route[r, "target"], route[r, "netmask"] != "" ? bits(route[r, "netmask"]) : route_v6[r] ? 128 : 32); target = split_ip
		gateway = route[r, "gateway"] != "" ? route[r, "gateway"] : route_v6[r] ? "::" : "0.0.0.0"
		routes = join(routes, "{\"target\":\"" target "\",\"mask\":" mask ",\"nexthop\":\"" gateway "\"" \
			(route[r, "metric"] ~ /^[0-9]+$/ ? ",\"metric\":" route[r, "metric"] : "") (route[r, "table"] ~ /^[0-9]+$/ ? ",\"table\":" route[r, "table"] : "") \
			",\"source\":\"" (route_v6[r] ? "::/0" : "0.0.0.0/0") "\"}")
	}
	n = split(option[name, "dns"], list, " ")
	for (i = 1; i <= n; i++) dns = join(dns, "\"" list[i] "\"")
	n = split(option[name, "dns_search"], list, " "); search = ""
	for (i = 1; i <= n; i++) search = join(search, "\"" list[i] "\"")
	return "\"ipv4-address\":[" v4 "],\"ipv6-address\":[" v6 "],\"ipv6-prefix\":[" prefixes "],\"ipv6-prefix-assignment\":[" assignment[name] "]," \
		"\"route\":[" routes "],\"dns-server\":[" dns "],\"dns-search\":[" search "],\"neighbors\":[]"
}
function item(name,    proto, device, up, l3, out, extra) {
	proto = option[name, "proto"] == "" ? "none" : option[name, "proto"]
	device = option[name, "device"]
	up = isup[name]
	l3 = proto == "wireguard" ? name : proto == "pppoe" ? "pppoe-" name : device
	out = "\"up\":" (up ? "true" : "false") ",\"pending\":" (up ? "false" : "true") ",\"available\":true,\"autostart\":" (option[name, "auto"] == "0" ? "false" : "true") ",\"dynamic\":false"
	if (up) out = out ",\"uptime\":86388,\"l3_device\":\"" l3 "\""
	out = out ",\"proto\":\"" proto "\"" (device == "" || proto == "wireguard" ? "" : ",\"device\":\"" device "\"")
	if (up) {
		extra = proto == "static" || proto == "wireguard" || proto == "none" ? "" : learned(name)
		if (extra == "") extra = lists(name, proto)
		out = out ",\"metric\":0,\"dns_metric\":0,\"delegation\":true," extra
	}
	return "{" (only == "" ? "\"interface\":\"" name "\"," : "") out ",\"data\":{}}"
}
/^config[ \t]/ {
	type = unquote($2); name = $3 == "" ? "" : unquote($3); current = ""; where = ""
	if (type == "interface" && name != "") { current = name; names[++count] = name }
	if (type == "route" || type == "route6") { where = ++nroutes; route_v6[where] = type == "route6" }
	if (type == "globals") where = "globals"
	next
}
/^[ \t]*(option|list)[ \t]/ && (current != "" || where != "") {
	key = $2; kind = $1; sub(/^[ \t]*(option|list)[ \t]+[^ \t]+[ \t]+/, ""); value = unquote($0)
	if (current != "") option[current, key] = kind ~ /list/ && option[current, key] != "" ? option[current, key] " " value : value
	else if (where == "globals") globals[key] = value
	else route[where, key] = value
	next
}
END {
	# netifd keeps its interfaces sorted by name.
	for (i = 2; i <= count; i++) for (j = i; j > 1 && names[j - 1] > names[j]; j--) { t = names[j]; names[j] = names[j - 1]; names[j - 1] = t }
	for (i = 1; i <= count; i++) isup[names[i]] = option[names[i], "disabled"] != "1" && !exists(state "/" names[i] ".down")
	if (globals["ula_prefix"] != "") { nprefixes = 1; prefix_len[1] = cidr(globals["ula_prefix"], 48); prefix_ip[1] = split_ip; prefix_owner[1] = "" }
	for (i = 1; i <= count; i++) {
		name = names[i]; proto = option[name, "proto"]
		if (!isup[name] || (proto != "static" && proto != "wireguard")) continue
		n = split(option[name, "ip6prefix"], list, " ")
		for (k = 1; k <= n; k++) { split(list[k], parts, ","); nprefixes++; prefix_len[nprefixes] = cidr(parts[1], 64); prefix_ip[nprefixes] = split_ip; prefix_owner[nprefixes] = name }
	}
	assign()
	if (only != "") {
		for (i = 1; i <= count; i++) if (names[i] == only) { print item(only); exit 0 }
		exit 4
	}
	printf "{\"interface\":["
	for (i = 1; i <= count; i++) printf "%s%s", (i > 1 ? "," : ""), item(names[i])
	print "]}"
}
