// Agon's browser front end: ES modules, no build step. This entry wires the
// language switch and the routes; each page is its own module, each board
// too. The server checks every action: the page draws the state it is sent
// (cells, pieces and legal moves come structured; nothing parses notation).
import { LANG, setLang } from "./i18n.js";
import { addRoute, route } from "./js/router.js";
import { homePage } from "./js/pages/home.js";
import { newGamePage } from "./js/pages/newgame.js";
import { watchPage } from "./js/pages/watch.js";
import { tournamentsPage, tournamentPage } from "./js/pages/tournaments.js";
import { playersPage } from "./js/pages/players.js";
import { modPage } from "./js/pages/mod.js";
import { startNav } from "./js/nav.js";
import { startSite } from "./js/site.js";
import { gamePage } from "./js/pages/game.js";
import { gamesPage } from "./js/pages/list.js";
import { replayPage } from "./js/pages/replay.js";
import { rulesPage } from "./js/pages/rules.js";
import { glossaryPage } from "./js/pages/glossary.js";
import { strategyPage } from "./js/pages/strategy.js";
import { historyPage } from "./js/pages/history.js";
import { learnPage } from "./js/pages/learn.js";
import { puzzlesPage } from "./js/pages/puzzles.js";
import { reviewPage } from "./js/pages/review.js";
import { analysisPage } from "./js/pages/analysis.js";
import { labPage } from "./js/pages/lab.js";
import { lobbyPage } from "./js/pages/lobby.js";
import { notFoundPage } from "./js/pages/notfound.js";
import { accountPage } from "./js/pages/account.js";
import { profilePage, leaderboardPage } from "./js/pages/profile.js";
import { account, applySettings, saveSetting, showInHeader } from "./js/account.js";
import { startTurns } from "./js/notify.js";

addRoute(/^\/$/, homePage);
addRoute(/^\/new$/, newGamePage);
addRoute(/^\/watch$/, watchPage);
addRoute(/^\/tournaments$/, tournamentsPage);
addRoute(/^\/t\/([a-z0-9]+)$/, tournamentPage);
addRoute(/^\/players$/, playersPage);
addRoute(/^\/mod$/, modPage);
addRoute(/^\/g\/([a-z0-9]+)$/, gamePage);
addRoute(/^\/replay\/([a-z0-9]+)$/, replayPage);
addRoute(/^\/review\/([a-z0-9]+)$/, reviewPage);
addRoute(/^\/analysis$/, analysisPage);
addRoute(/^\/lab$/, labPage);
addRoute(/^\/lobby$/, lobbyPage);
addRoute(/^\/games$/, gamesPage);
addRoute(/^\/rules$/, rulesPage);
addRoute(/^\/glossary$/, glossaryPage);
addRoute(/^\/strategy$/, strategyPage);
addRoute(/^\/history$/, historyPage);
addRoute(/^\/learn$/, learnPage);
addRoute(/^\/learn\/(ringo|urgammon)\/([a-z0-9-]+)$/, learnPage);
addRoute(/^\/puzzles$/, puzzlesPage);
addRoute(/^\/puzzles\/([a-z0-9-]+)$/, puzzlesPage);
addRoute(/^\/account$/, accountPage);
addRoute(/^\/@\/([A-Za-z0-9_%-]+)$/, profilePage);
addRoute(/^\/leaderboard$/, leaderboardPage);
addRoute(/^.*$/, notFoundPage);

const langSelect = document.getElementById("lang");
langSelect.value = LANG;
langSelect.addEventListener("change", () => {
  setLang(langSelect.value);
  saveSetting("lang", langSelect.value);
  route();
  document.dispatchEvent(new Event("agon-lang"));
});
document.addEventListener("agon-sound", (e) => saveSetting("sound", e.detail));

startNav();
route();
// The site's socket: this player counts as online, and hears of her
// challenges on whatever page she is.
startSite();
// The player's games between people: the menu's count, and notifications
// when one of them wants her while she looks elsewhere.
startTurns();
// Who is signed in: the header shows the name, and the account's settings
// (language, sounds) apply to this browser too.
account().then((a) => {
  if (applySettings(a)) {
    langSelect.value = a.settings.lang;
    route();
  }
  showInHeader();
});
