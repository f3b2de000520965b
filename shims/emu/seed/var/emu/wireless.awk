# The emulated router's wireless state, derived from etc/config/wireless so that it follows every
# write. Without `call`, `ubus call network.wireless status`: a radio is up unless `disabled '1'` or
# it has no enabled interface mac80211.sh sets up (mode ap, sta, adhoc, mesh or monitor; it skips any
# other, and one without a mode); such an interface of an up radio is set up as phy<N>-<prefix><M>
# (N the radio's place among the radios, the prefix ap, sta, ibss, mesh or mon, M its place among the
# radio's interfaces of that prefix) unless it names its own `ifname`. `config` echoes the sections'
# options as netifd does, lists as arrays. With `call` info or assoclist and `device` an ifname, what
# rpcd's iwinfo plugin answers about that interface (iwinfo.c rpc_iwinfo_info, rpc_iwinfo_assoclist):
# its radio's band (or the one the scripts derive), channel (auto: the band's first), htmode, country
# and txpower; its BSSID (its `macaddr`, or 52:54:00:A<N>:00:<index>; a sta's is its AP's); a sta
# associated to its `bssid` (else 02:00:00:00:00:01) at -52 dBm; further associated stations from
# var/emu/stations, lines "<ifname> <MAC> <signal dBm>". An ifname nothing has set up: "Not found" (4).
function unquote(text) {
	sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
	if (text ~ /^'.*'$/ || text ~ /^".*"$/) text = substr(text, 2, length(text) - 2)
	return text
}
function escaped(text) { gsub(/\\/, "\\\\", text); gsub(/"/, "\\\"", text); return text }
# libuci's name of an anonymous section: cfg, its place in the file and a hash of its type.
function anonymous(type, position,    hash, i) {
	hash = 5381
	for (i = 1; i <= length(type); i++) hash = (hash * 33 + ord[substr(type, i, 1)]) % 4294967296
	return sprintf("cfg%02x%04x", position, hash % 65536)
}
function value(section, key) {
	if (key == "disabled") return option[section, key] == "1" ? "true" : "false"
	if (islist[section, key]) return "[" option[section, key] "]"
	return "\"" escaped(option[section, key]) "\""
}
function config(section,    i, out) {
	out = ""
	for (i = 1; i <= nkeys[section]; i++) out = out (i > 1 ? "," : "") "\"" keys[section, i] "\":" value(section, keys[section, i])
	return "{" out "}"
}
# Whether an interface is on a radio: its option names it whole, or its list holds it.
function onradio(iface, radio) {
	if (islist[iface, "device"]) return index("," option[iface, "device"] ",", ",\"" radio "\",") > 0
	return option[iface, "device"] == radio
}
# mac80211_prepare_vif's name prefix of a mode; empty for a mode the script skips.
function prefix(mode) {
	if (mode == "ap" || mode == "sta" || mode == "mesh") return mode
	if (mode == "adhoc") return "ibss"
	return mode == "monitor" ? "mon" : ""
}
# _wdev_prepare_channel: `band`, else the legacy hwmode's, else the channel's.
function bandof(radio,    hwmode) {
	if (option[radio, "band"] != "") return option[radio, "band"]
	hwmode = option[radio, "hwmode"]; sub(/^11/, "", hwmode)
	if (hwmode == "ad") return "60g"
	if (hwmode == "a") return "5g"
	if (hwmode == "b" || hwmode == "g") return "2g"
	return option[radio, "channel"] + 0 > 14 ? "5g" : "2g"
}
function frequency(band, channel) {
	if (band == "2g") return channel == 14 ? 2484 : 2407 + 5 * channel
	if (band == "5g") return 5000 + 5 * channel
	if (band == "6g") return channel == 2 ? 5935 : 5950 + 5 * channel
	return 56160 + 2160 * channel
}
# The centre channel of the width, as mac80211_hostapd_setup_base places it (6 GHz one channel on).
function centre(band, channel, htmode,    width, offset, step) {
	width = htmode; sub(/^[A-Z]+/, "", width); sub(/[+-]$/, "", width)
	offset = band == "6g" ? 1 : 0
	if (width == "40") {
		if (band == "2g") return htmode ~ /-$/ || (htmode !~ /\+$/ && channel >= 7) ? channel - 2 : channel + 2
		return (int(channel / 4) + offset) % 2 == 1 ? channel + 2 : channel - 2
	}
	if (width == "80") { step = (int(channel / 4) + offset) % 4; return channel + (step == 1 ? 6 : step == 2 ? 2 : step == 3 ? -2 : -6) }
	if (width == "160") return band == "6g" ? int((channel - 1) / 32) * 32 + 15 : channel <= 64 ? 50 : channel <= 128 ? 114 : 163
	if (width == "320") return int((channel - 1) / 64) * 64 + 31
	return channel
}
function quoted(list,    n, items, i, out) {
	n = split(list, items, " "); out = ""
	for (i = 1; i <= n; i++) out = out (i > 1 ? "," : "") "\"" items[i] "\""
	return "[" out "]"
}
# rpc_iwinfo_add_encryption of the key management hostapd or wpa_supplicant sets up.
function encryption(text,    base, wpa, auth, ciphers) {
	base = text; sub(/\+.*/, "", base); sub(/^psk3/, "sae", base)
	if (base == "" || base == "none" || base ~ /^wep/) return "{\"enabled\":false}"
	wpa = base ~ /mixed/ ? (base ~ /^(sae|wpa3)/ ? "2 3" : "1 2") : base ~ /^(sae|owe|wpa3)/ ? "3" : base ~ /2$/ ? "2" : "1"
	auth = base ~ /^psk/ ? "psk" : base == "sae-mixed" ? "psk sae" : base == "sae" ? "sae" : base == "owe" ? "owe" : "802.1x"
	ciphers = text ~ /tkip/ ? (text ~ /(ccmp|aes)/ ? "tkip ccmp" : "tkip") : "ccmp"
	gsub(/ /, ",", wpa)
	return "{\"enabled\":true,\"wpa\":[" wpa "],\"authentication\":" quoted(auth) ",\"ciphers\":" quoted(ciphers) "}"
}
function station(mac, signal) {
	return sprintf("{\"mac\":\"%s\",\"signal\":%d,\"signal_avg\":%d,\"noise\":-95,\"inactive\":10,\"connected_time\":600,\"thr\":0,\"authorized\":true,\"authenticated\":true,\"preamble\":\"short\",\"wme\":true,\"mfp\":false,\"tdls\":false,\"mesh llid\":0,\"mesh plid\":0,\"mesh plink\":\"\",\"mesh local PS\":\"\",\"mesh peer PS\":\"\",\"mesh non-peer PS\":\"\",\"rx\":{\"drop_misc\":0,\"packets\":1200,\"bytes\":240000,\"ht\":true,\"vht\":false,\"he\":false,\"eht\":false,\"mhz\":20,\"rate\":144400,\"mcs\":15,\"40mhz\":false,\"short_gi\":true},\"tx\":{\"failed\":0,\"retries\":3,\"packets\":900,\"bytes\":180000,\"ht\":true,\"vht\":false,\"he\":false,\"eht\":false,\"mhz\":20,\"rate\":144400,\"mcs\":15,\"40mhz\":false,\"short_gi\":true}}", mac, signal, signal)
}
function iwinfo(iface, r, vif,    radio, mode, band, channel, htmode, hwmode, mac, n, peers, signals, i, sum, quality, info, modes, htmodes) {
	radio = radios[r]; mode = option[iface, "mode"]; band = bandof(radio)
	channel = option[radio, "channel"] + 0
	if (channel <= 0) channel = band == "2g" ? 1 : band == "5g" ? 36 : band == "6g" ? 1 : 2
	htmode = option[radio, "htmode"] == "" ? "NOHT" : option[radio, "htmode"]
	mac = option[iface, "macaddr"] != "" && option[iface, "macaddr"] != "random" ? toupper(option[iface, "macaddr"]) : sprintf("52:54:00:A%d:00:%02X", r - 1, vif)
	# Who it is associated with: a sta its AP, the others what var/emu/stations lists.
	n = 0
	if (mode == "sta") { peers[++n] = option[iface, "bssid"] == "" ? "02:00:00:00:00:01" : toupper(option[iface, "bssid"]); signals[n] = -52 }
	for (i = 1; i <= nlisted; i++) if (peer[i, "ifname"] == device) { peers[++n] = peer[i, "mac"]; signals[n] = peer[i, "signal"] }
	if (call == "assoclist") {
		printf "{\"results\":["
		for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? "," : ""), station(peers[i], signals[i])
		print "]}"
		return
	}
	sum = 0; for (i = 1; i <= n; i++) sum += signals[i]
	if (n) { sum = int(sum / n); quality = sum + 110 > 70 ? 70 : sum + 110 < 0 ? 0 : sum + 110 }
	modes = band == "2g" ? "b g n ax" : band == "5g" ? "a n ac ax" : band == "6g" ? "ax" : "ad"
	if (htmode ~ /^EHT/) modes = modes " be"
	htmodes = band == "2g" ? "HT20 HT40 HE20 HE40" : band == "5g" ? "HT20 HT40 VHT20 VHT40 VHT80 VHT160 HE20 HE40 HE80 HE160" : band == "6g" ? "HE20 HE40 HE80 HE160" : ""
	if (htmode ~ /^EHT/) htmodes = htmodes " EHT20 EHT40" (band == "2g" ? "" : " EHT80 EHT160") (band == "6g" ? " EHT320" : "")
	hwmode = htmode ~ /^HT/ ? "n" : htmode ~ /^VHT/ ? "ac" : htmode ~ /^HE/ ? "ax" : htmode ~ /^EHT/ ? "be" : band == "60g" ? "ad" : "n"
	info = sprintf("{\"phy\":\"phy%d\",\"ssid\":\"%s\",\"bssid\":\"%s\",\"country\":\"%s\",\"mode\":\"%s\",\"channel\":%d,\"center_chan1\":%d,\"frequency\":%d,\"frequency_offset\":0,\"txpower\":%d,\"txpower_offset\":0,",
		r - 1, escaped(mode == "mesh" && option[iface, "mesh_id"] != "" ? option[iface, "mesh_id"] : option[iface, "ssid"]), mode == "sta" ? peers[1] : mac, option[radio, "country"] == "" ? "00" : option[radio, "country"],
		opmode[mode], channel, centre(band, channel, htmode), frequency(band, channel), option[radio, "txpower"] == "" ? 20 : option[radio, "txpower"] + 0)
	if (n) info = info sprintf("\"quality\":%d,\"quality_max\":70,\"signal\":%d,", quality, sum)
	else info = info "\"quality_max\":70,"
	info = info "\"noise\":-95," (n ? "\"bitrate\":144400," : "") "\"encryption\":" encryption(mode == "monitor" ? "none" : option[iface, "encryption"])
	info = info ",\"htmodes\":" quoted(htmodes) ",\"hwmodes\":" quoted(modes) ",\"hwmode\":\"" hwmode "\",\"htmode\":\"" (htmode ~ /^HT40/ ? "HT40" : htmode) "\""
	print info ",\"hardware\":{\"id\":[5315,30997,5315,30997],\"name\":\"MediaTek MT7915E\"}}"
}
BEGIN {
	for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i
	split("ap Master sta Client adhoc Ad-Hoc mesh Mesh_Point monitor Monitor", pairs, " ")
	for (i = 1; i < 10; i += 2) { opmode[pairs[i]] = pairs[i + 1]; gsub(/_/, " ", opmode[pairs[i]]) }
	# The message's device, as rpcd's policy takes it.
	if (match(message, /"device"[ \t]*:[ \t]*"[^"]*"/)) { device = substr(message, RSTART, RLENGTH); sub(/^"device"[ \t]*:[ \t]*"/, "", device); sub(/"$/, "", device) }
	if (call != "" && device == "") { invalid = 1; exit }
	if (stations != "") while ((getline line < stations) > 0) if (split(line, fields, /[ \t]+/) >= 3) {
		nlisted++; peer[nlisted, "ifname"] = fields[1]; peer[nlisted, "mac"] = toupper(fields[2]); peer[nlisted, "signal"] = fields[3] + 0
	}
}
/^config[ \t]/ {
	sections++
	type = unquote($2); name = $3 == "" ? anonymous(type, sections) : unquote($3)
	current = ""
	if (type == "wifi-device") { current = name; radios[++nradios] = name }
	if (type == "wifi-iface") { current = name; ifaces[++nifaces] = name }
	next
}
current != "" && /^[ \t]*(option|list)[ \t]/ {
	kind = $1; key = $2; sub(/^[ \t]*(option|list)[ \t]+[^ \t]+[ \t]+/, ""); text = unquote($0)
	if (!((current, key) in option)) keys[current, ++nkeys[current]] = key
	if (kind == "list" || key == "network") {
		islist[current, key] = 1
		# `option network 'lan wan'` is a list to netifd too.
		n = split(text, words, /[ \t]+/)
		for (i = 1; i <= n; i++) option[current, key] = option[current, key] (option[current, key] == "" ? "" : ",") "\"" escaped(words[i]) "\""
	} else option[current, key] = text
	next
}
END {
	# rpcd's statuses, which bin/ubus reports as its CLI does.
	if (invalid) exit 2
	out = "{"
	for (r = 1; r <= nradios; r++) {
		radio = radios[r]; enabled = 0
		for (i = 1; i <= nifaces; i++) if (onradio(ifaces[i], radio) && option[ifaces[i], "disabled"] != "1" && prefix(option[ifaces[i], "mode"]) != "") enabled++
		up = option[radio, "disabled"] != "1" && enabled > 0
		out = out sprintf("%s\"%s\":{\"up\":%s,\"pending\":false,\"autostart\":true,\"disabled\":%s,\"retry_setup_failed\":false,\"config\":%s,\"interfaces\":[", (r > 1 ? "," : ""), radio, (up ? "true" : "false"), (option[radio, "disabled"] == "1" ? "true" : "false"), config(radio))
		listed = 0; split("", counts); vifs = 0
		for (i = 1; i <= nifaces; i++) {
			iface = ifaces[i]
			if (!onradio(iface, radio)) continue
			kind = prefix(option[iface, "mode"])
			ifname = ""
			if (up && kind != "" && option[iface, "disabled"] != "1") {
				ifname = option[iface, "ifname"] != "" ? option[iface, "ifname"] : sprintf("phy%d-%s%d", r - 1, kind, counts[kind]++)
				if (call != "" && ifname == device) { iwinfo(iface, r, vifs); exit 0 }
				vifs++
			}
			out = out sprintf("%s{\"section\":\"%s\",%s\"config\":%s,\"vlans\":[],\"stations\":[]}", (listed++ ? "," : ""), iface, (ifname == "" ? "" : "\"ifname\":\"" ifname "\","), config(iface))
		}
		out = out "]}"
	}
	if (call != "") exit 4
	print out "}"
}
