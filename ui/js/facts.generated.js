// Generated from src-tauri/src/facts.rs by its test; do not edit. To rewrite:
// TENGEN_WRITE_FACTS=1 cargo test -p tengen-app --lib facts
export const FACTS = Object.freeze({
  "levels": [
    {
      "game": "gomoku",
      "level": "fivetuple",
      "rank": 1,
      "followsClock": false
    },
    {
      "game": "gomoku",
      "level": "winarray",
      "rank": 2,
      "followsClock": false
    },
    {
      "game": "gomoku",
      "level": "pattern",
      "rank": 3,
      "followsClock": false
    },
    {
      "game": "gomoku",
      "level": "lookahead",
      "rank": 4,
      "followsClock": true
    },
    {
      "game": "gomoku",
      "level": "master",
      "rank": 5,
      "followsClock": true
    },
    {
      "game": "reversi",
      "level": "greedy",
      "rank": 1,
      "followsClock": false
    },
    {
      "game": "reversi",
      "level": "classic",
      "rank": 2,
      "followsClock": false
    },
    {
      "game": "reversi",
      "level": "strong",
      "rank": 3,
      "followsClock": false
    },
    {
      "game": "reversi",
      "level": "master",
      "rank": 4,
      "followsClock": true
    }
  ],
  "rules": [
    "freestyle",
    "standard",
    "renju"
  ],
  "openings": [
    {
      "rule": "none",
      "renjuOnly": false
    },
    {
      "rule": "swap",
      "renjuOnly": false
    },
    {
      "rule": "swap2",
      "renjuOnly": false
    },
    {
      "rule": "soosorv8",
      "renjuOnly": true
    }
  ],
  "maxOffers": 8,
  "timePerMoveMs": {
    "min": 100,
    "max": 60000,
    "default": 1000,
    "offered": [
      100,
      500,
      1000,
      2000,
      5000,
      10000,
      30000,
      60000
    ]
  },
  "gomokuSizes": {
    "min": 5,
    "max": 26,
    "default": 15,
    "offered": [
      9,
      11,
      13,
      15,
      17,
      19
    ]
  },
  "timeControls": {
    "offered": [
      {
        "type": "none"
      },
      {
        "type": "sudden_death",
        "baseMs": 60000
      },
      {
        "type": "sudden_death",
        "baseMs": 180000
      },
      {
        "type": "sudden_death",
        "baseMs": 300000
      },
      {
        "type": "sudden_death",
        "baseMs": 600000
      },
      {
        "type": "sudden_death",
        "baseMs": 900000
      },
      {
        "type": "fischer",
        "baseMs": 60000,
        "incrementMs": 1000
      },
      {
        "type": "fischer",
        "baseMs": 180000,
        "incrementMs": 2000
      },
      {
        "type": "fischer",
        "baseMs": 300000,
        "incrementMs": 3000
      },
      {
        "type": "fischer",
        "baseMs": 600000,
        "incrementMs": 5000
      },
      {
        "type": "per_move",
        "moveMs": 5000
      },
      {
        "type": "per_move",
        "moveMs": 10000
      },
      {
        "type": "per_move",
        "moveMs": 30000
      }
    ],
    "urgentMs": 10000
  },
  "engineMemoryMib": {
    "min": 16,
    "max": 256,
    "default": 64,
    "offered": [
      16,
      64,
      256
    ]
  },
  "defaultSettings": {
    "language": "auto",
    "theme": "system",
    "sound": true,
    "showCoordinates": true,
    "showMoveNumbers": false,
    "coach": false,
    "threads": null,
    "engineMemoryMib": 64,
    "analysisLines": 3,
    "lastConfig": null
  },
  "defaultConfig": {
    "kind": {
      "game": "gomoku",
      "rule": "renju",
      "size": 15
    },
    "black": {
      "type": "human"
    },
    "white": {
      "type": "computer",
      "level": {
        "game": "gomoku",
        "level": "pattern"
      }
    },
    "timePerMoveMs": 1000,
    "timeControl": {
      "type": "none"
    }
  }
});
