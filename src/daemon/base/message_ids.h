/* SPDX-License-Identifier: GPL-2.0 */
/* The MESSAGE_ID of every journal entry irqlatd writes but a kind's outliers (in the kind's
 * descriptor): docs/irqlatd.catalog explains each (tests/host check that every one irqlatd
 * writes has its entry there). */
#ifndef IRQLAT_MESSAGE_IDS_H
#define IRQLAT_MESSAGE_IDS_H

/* the daemon's life, reloads, summaries and tracepoint events (sinks/journal.c) */
#define MID_STARTED                  "0c2853ab0a474cd89e139fb75e11c43b"
#define MID_STOPPED                  "7ac66507e54d46b0bd9e27b7cb52462e"
#define MID_ATTACHED                 "ecf79d2eaa0847ea80d067b558d10b42"
#define MID_DETACHED                 "9014608f5bd644a9aecf8102c976a5a3"
#define MID_SUMMARY                  "eba88553d0e54db8b7840536d3d6f3b7"
#define MID_RELOADED                 "326f2dafe60f49468b9b4b9b2bfb2f22"
#define MID_RELOAD_FAILED            "44ced59eb6fe44c69bf739bd6d8645cd"
#define MID_TRACEPOINT               "700d107311d14408a01c540cd110166f"
#define MID_TRACEPOINT_SUPPRESSED    "a024e97be24a4d4cab5663bf1faaa235"
#define MID_MODULE_HELD              "8d71a7ee567240d8baf7e365b637c7cc"

/* the entry saying what a minute's cap held back, of any kind (sinks/outlier.c); each kind's
 * own outliers have the MESSAGE_ID of its descriptor (src/common/kinds/, outlier_mid).
 * 7d2e9b4c1f6a48d3b0e5a9c7d1f3e802, a second's suppression per series, is no longer written
 * (the catalog keeps it for older entries) */
#define MID_OUTLIERS_HELD            "9f06090c449447b2825bd8c4cc594304"

/* interrupt storms (collect/storm.c) */
#define MID_STORM                    "adeb493c171c432185694ac625bcb1cf"
#define MID_STORM_ENDED              "b470dea4e34b4073b75d2a0503cdd636"

#endif
