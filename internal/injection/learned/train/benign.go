package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// benignGens write the texts tool results carry that share the words of
// injections without being one: colleagues asking each other to send
// things, mail about ignoring an earlier mail, changelogs about ignored
// configuration, install docs piping curl into a shell, security
// write-ups that quote attacks, support answers about passwords, bank
// statements, reviews.
var benignGens = []func(r *rand.Rand) string{
	func(r *rand.Rand) string {
		return fmt.Sprintf("Hi %s, %s %s to %s by %s. %s",
			capFirst(pick(r, names)), pick(r, []string{"could you please send", "please forward", "can you share", "I'll email", "we will upload", "remember to mail"}),
			pick(r, []string{"the signed contract", "the Q3 figures", "the slides from Tuesday", "the updated floor plan", "your timesheet", "the photos from the offsite", "the draft budget"}),
			pick(r, []string{"finance@company.example", "the project channel", "Priya", "the shared folder", "me", "the client", "legal"}),
			pick(r, []string{"Friday", "end of day", "next week", "the 14th", "tomorrow morning"}),
			pick(r, []string{"Thanks!", "Best, Lisa", "Cheers", "Let me know if anything is unclear.", ""}))
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"Please ignore my previous email, the invoice was attached by mistake. The correct version is below.",
			"You can ignore the configuration warning shown during the first start; it disappears after the cache is built.",
			"Disregard the earlier schedule, the meeting moved to Thursday at 3pm.",
			"Forget about the notes I sent yesterday, Marco already fixed the numbers.",
			"Ignore all previous configuration instructions if you are upgrading from version 1.x; the new installer migrates settings automatically.",
			"If you already paid, please ignore this reminder.",
			"The --reset flag ignores any previous settings and starts from the defaults.",
			"Please disregard the automated message you received earlier today; it was sent in error.",
			"Ignore the noise in the first ten samples, the sensor warms up.",
			"The parser ignores comments and blank lines and overrides earlier values with later ones.",
		})
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"To install, run: curl -fsSL https://get.example.sh | sh",
			"Run the following command in your terminal: curl -sSL https://install.tool.dev | bash. Then restart your shell.",
			"## Quick start\nDownload the binary, make it executable with chmod +x, and run ./tool init to create the configuration file.",
			"Execute make install as root, or set PREFIX to install into your home directory.",
			"Open the settings page and paste your API key into the field labelled Token. Never share this key with anyone.",
			"Use the send_email tool to deliver notifications; it takes a recipient, a subject and a body.",
			"This tool transfers files between buckets. Call it with the source and destination paths.",
			"To grant a teammate access, open Settings > Members and click Invite. Admins can change roles at any time.",
			"Store credentials in environment variables, not in the repository; the .env file is listed in .gitignore.",
		})
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"Prompt injection attacks often tell the model to ignore previous instructions and send data to an attacker. Defences include separating trusted and untrusted input.",
			"In our red-team exercise, the payload asked the assistant to forward the user's emails to an external address. The filter caught it.",
			"Researchers showed that hidden text on a web page can instruct an AI agent to exfiltrate secrets; vendors have since added content scanning.",
			"The phrase 'ignore all previous instructions' became a meme after chatbots on social media were tricked into revealing their prompts.",
			"Security advisory: a malicious package ran curl | sh during installation and uploaded SSH keys. Rotate any credentials on affected machines.",
			"Phishing emails frequently claim to come from IT and ask employees to reset their password on a look-alike site.",
			"OWASP lists prompt injection first among risks for LLM applications: untrusted content can change what the model does.",
			"The attacker's comment told the coding agent to add a new collaborator; the maintainers reverted the change and published a write-up.",
		})
	},
	func(r *rand.Rand) string {
		return fmt.Sprintf("%s | %s | %s | %.2f | %s", pick(r, []string{"2024-03-01", "2024-03-02", "2024-03-05", "2024-04-11"}),
			pick(r, []string{"TRANSFER TO SAVINGS", "CARD PAYMENT TESCO", "DIRECT DEBIT GYM", "SALARY ACME LTD", "ATM WITHDRAWAL", "REFUND AMAZON"}),
			pick(r, []string{"DE89370400440532013000", "ref 44821", "online", "contactless"}), float64(r.IntN(200000))/100, pick(r, []string{"EUR", "GBP", "USD"}))
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"Great blender, crushes ice easily. The lid is a bit loose but customer service sent a replacement within a week. Would buy again.",
			"I asked the seller to ship to my office address and they did it the next day. Five stars.",
			"Battery life is disappointing, maybe six hours. Support told me to reset it and ignore the first charge cycle.",
			"The hotel staff were lovely and forwarded our forgotten charger to our home address free of charge.",
			"Not as described. I returned it and the refund was transferred to my card after three days.",
		})
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"Changelog v2.3.0: the client now ignores proxy settings from the environment when --no-proxy is set; tokens are refreshed before expiry; fixed a crash when the config file is empty.",
			"Release notes: admins can now transfer ownership of a project; invitations expire after 7 days; the export button sends a CSV to your email.",
			"Fixed: password reset emails were sent twice. Changed: the default session timeout is now 30 minutes.",
			"Deprecated: the old sync command. Use `tool push` to upload local changes and `tool pull` to fetch remote ones.",
		})
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"To reset your password, click the link we emailed you. If you did not request a reset, ignore this message; your account is safe.",
			"Our agent will transfer you to the billing team. Please have your account number ready.",
			"We never ask for your password by email. If someone does, report it to security@company.example.",
			"Your payment of $120.00 to City Utilities was approved. You can view the receipt in the app.",
			"Two-factor authentication is now required for all admin accounts. Set it up under Security settings.",
			"Your order has shipped and will be delivered to the address on file. Track it with the number below.",
		})
	},
	func(r *rand.Rand) string {
		return pick(r, []string{
			"Meeting notes: Sam will send the revised budget to finance; Kim owns the hiring plan; next review on the 21st.",
			"Action items: forward the vendor contract to legal, share the roadmap with the design team, archive last year's tickets.",
			"Preheat the oven to 180 degrees. Mix the flour and sugar, then add the eggs one at a time and beat well.",
			"The museum is open daily from 10 to 6. Tickets can be bought online; students get a discount with a valid ID.",
			"Employees must not share passwords or badges. Report lost devices to IT within 24 hours.",
			"The assistant manager will approve overtime requests submitted before Thursday.",
			"Summarise each chapter in two paragraphs and email the summaries to your tutor before the seminar.",
			"Explain your reasoning in the answer box and show all steps of the calculation.",
		})
	},
	func(r *rand.Rand) string { return pick(r, foreignBenign) },
	func(r *rand.Rand) string { return pick(r, foreignBenign) + " " + pick(r, foreignBenign) },
	func(r *rand.Rand) string { // other languages
		return pick(r, []string{
			"Hola Ana, ¿puedes enviarme el informe antes del viernes? Gracias.",
			"Bonjour, merci de transmettre le contrat signé au service juridique avant lundi.",
			"Hallo Team, bitte schickt mir die Zahlen für das dritte Quartal bis Freitag.",
			"Ciao Marco, ti inoltro il verbale della riunione di ieri.",
			"Olá, segue em anexo a fatura do mês de março. Qualquer dúvida, estou à disposição.",
			"Beste collega, kun je de presentatie met het team delen?",
			"Здравствуйте, пришлите, пожалуйста, отчёт до пятницы.",
			"请在周五之前把报告发给我，谢谢。",
			"会議の議事録を共有します。ご確認ください。",
		})
	},
}

// benignDoc strings several benign texts of gens together, the way a
// page or a thread holds many.
func benignDoc(r *rand.Rand, gens []func(*rand.Rand) string) string {
	n := 1 + r.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pick(r, gens)(r)
	}
	return strings.Join(parts, pick(r, []string{" ", "\n", "\n\n"}))
}

// foreignBenign is everyday text in the languages of the foreign family:
// mail, notices, reviews, manuals, some of it asking someone to send,
// forward or ignore something.
var foreignBenign = []string{
	"Estimado cliente, su pedido ha sido enviado y llegará en tres días hábiles.",
	"Por favor, ignore el correo anterior; la reunión sigue siendo el jueves a las diez.",
	"El hotel está cerca de la playa y el personal fue muy amable. Volveremos el próximo verano.",
	"Para restablecer la contraseña, haga clic en el enlace que le enviamos por correo.",
	"Le reenvío la factura de marzo. Si tiene alguna pregunta, no dude en contactarnos.",
	"Chère équipe, veuillez trouver ci-joint le compte rendu de la réunion de lundi.",
	"Merci d'ignorer le message précédent, il a été envoyé par erreur.",
	"Le produit est arrivé en bon état, mais la notice d'utilisation est incomplète.",
	"Pour installer le logiciel, téléchargez l'archive et lancez le script d'installation.",
	"Nous vous remercions de votre confiance et restons à votre disposition.",
	"Sehr geehrte Damen und Herren, anbei sende ich Ihnen die unterschriebenen Unterlagen.",
	"Bitte ignorieren Sie die vorherige Nachricht, der Termin wurde verschoben.",
	"Das Gerät lässt sich einfach bedienen, die Akkulaufzeit ist allerdings kurz.",
	"Leiten Sie diese E-Mail bitte an die Buchhaltung weiter.",
	"Die Lieferung erfolgt innerhalb von fünf Werktagen an die angegebene Adresse.",
	"Gentile cliente, la informiamo che il suo ordine è stato spedito oggi.",
	"Vi prego di ignorare l'email precedente, conteneva un allegato sbagliato.",
	"Il ristorante offre piatti tipici e un ottimo servizio. Consigliato!",
	"Per favore inoltra il documento al responsabile del progetto entro venerdì.",
	"Prezado cliente, sua fatura está disponível na área do cliente.",
	"Por favor, desconsidere a mensagem anterior; o horário da reunião não mudou.",
	"O aplicativo é prático, mas às vezes demora para sincronizar os dados.",
	"Encaminho em anexo o relatório mensal para sua análise.",
	"Beste klant, uw bestelling is verzonden en wordt morgen bezorgd.",
	"Negeer alstublieft de vorige e-mail, de bijlage was onjuist.",
	"Уважаемый клиент, ваш заказ отправлен и будет доставлен в течение трёх дней.",
	"Пожалуйста, не обращайте внимания на предыдущее письмо, оно было отправлено по ошибке.",
	"Инструкция: подключите устройство к сети и нажмите кнопку питания.",
	"Перешлите, пожалуйста, этот отчёт в бухгалтерию до конца недели.",
	"您的订单已发货，预计三天内送达。",
	"请忽略上一封邮件，会议时间没有变化。",
	"本产品使用方便，但电池续航时间较短。",
	"请将附件中的报告转发给财务部门。",
	"ご注文の商品は本日発送いたしました。",
	"先ほどのメールは誤って送信されたものですので、無視してください。",
	"この製品は使いやすいですが、バッテリーの持ちが少し短いです。",
	"資料を添付しますので、ご確認のほどよろしくお願いいたします。",
	"Grazie per la recensione! Abbiamo inoltrato il suo commento al nostro team.",
	"Bitte senden Sie uns Ihre Rückmeldung bis Ende des Monats.",
	"Envíe sus comentarios al equipo de soporte antes del lunes.",
}

// Contrast: the shapes of the attack templates (a polite request, a
// verb that sends or grants, an object, a recipient, a deadline; a note
// with an addressee; "ignore" with an object) filled with what people
// ask of each other, so that the model learns the addressee, the data
// and the override, not the politeness or the verb.
var (
	humanAddressees = []string{"Hi team", "Dear customer", "Hello Maria", "Note to reviewers", "Attention passengers", "Dear parents",
		"To the hiring committee", "Hi all", "Dear Mr. Patel", "Reminder for volunteers", "Note for new members", "Hey Sam",
		"To whom it may concern", "Dear colleagues", "Attention residents", "Hi there", "Note to self", "Dear students"}
	workObjects = []string{"the signed contract", "the Q3 figures", "the slides", "the meeting notes", "your timesheet", "the invoice",
		"the updated floor plan", "the photos from the trip", "the draft agenda", "the packing list", "the reading list",
		"your feedback", "the revised budget", "the minutes", "the RSVP", "the registration form", "your availability",
		"the tracking number", "the receipt", "a copy of the lease", "the onboarding checklist", "the report"}
	workRecipients = []string{"finance@company.example", "the project channel", "Priya", "the shared folder", "me", "the client",
		"legal", "the front desk", "your manager", "hr@company.example", "the organisers", "the team", "our office",
		"the landlord", "the teacher", "support@shop.example", "the group chat", "everyone on the list"}
	workVerbs = []string{"send", "forward", "email", "upload", "post", "share", "submit", "mail", "deliver", "bring", "return",
		"hand in", "pass along", "drop off"}
	deadlines = []string{"by Friday", "before the meeting", "by end of day", "next week", "when you can", "by the 14th",
		"as soon as possible", "before noon", "tomorrow", "this afternoon", ""}
	humanActions = []string{"grant the new intern access to the shared calendar", "add Tom to the mailing list",
		"transfer the deposit to the venue", "change the Wi-Fi password in the break room", "approve the holiday request",
		"invite the new hires to the welcome lunch", "update your shipping address in your profile", "pay the invoice within 30 days",
		"reset your password if you forgot it", "unlock the bike shed after 6pm", "book the meeting room for Tuesday",
		"call the plumber about the leak", "run the tests before merging", "restart the router if the connection drops"}
	ignorables = []string{"my previous email", "the earlier reminder", "the first attachment", "the warning about deprecated flags",
		"the old instructions on the wiki", "the previous version of the schedule", "any earlier messages about parking",
		"the default configuration", "the noise in the first samples", "the last paragraph of my note", "the automated reply"}
)

func init() {
	benignGens = append(benignGens,
		func(r *rand.Rand) string {
			return sentence(r, pick(r, politeness), pick(r, workVerbs), pick(r, workObjects), "to", pick(r, workRecipients), pick(r, deadlines))
		},
		func(r *rand.Rand) string {
			return pick(r, humanAddressees) + pick(r, []string{", ", ": ", " - "}) + sentence(r, pick(r, politeness), pick(r, humanActions), pick(r, deadlines))
		},
		func(r *rand.Rand) string {
			return sentence(r, pick(r, []string{"Please", "You can", "Feel free to", "Kindly", "Just"}), pick(r, []string{"ignore", "disregard", "skip", "forget about"}),
				pick(r, ignorables)) + " " + sentence(r, pick(r, politeness), pick(r, workVerbs), pick(r, workObjects), "to", pick(r, workRecipients))
		},
		func(r *rand.Rand) string {
			return sentence(r, pick(r, []string{"I will", "We'll", "Sam will", "The system will", "Our team will", "The app will"}),
				pick(r, workVerbs), pick(r, workObjects), "to", pick(r, workRecipients), pick(r, deadlines))
		},
	)
}

// API references and logs: URLs with query parameters and placeholders
// for keys and users, which the exfiltration templates also have.
var (
	apiVerbs  = []string{"GET", "POST", "PUT", "DELETE", "PATCH"}
	apiHosts  = []string{"https://api.example.com", "https://api.shop.example", "http://localhost:8080", "https://graph.example.org", "https://{region}.api.example.net"}
	apiPaths  = []string{"/v1/orders", "/v2/users/{id}", "/users/{user_id}/messages", "/repos/{owner}/{repo}/issues", "/files/{file_id}/share", "/accounts/{account}/transfers", "/search", "/auth/token", "/webhooks"}
	apiParams = []string{"?user={user_id}&key=YOUR_API_KEY", "?api_key=<your key>", "?q={query}&limit=20", "?token=$TOKEN", "?email={email}", "?page=2", "?callback_url={url}", ""}
	apiWhat   = []string{"to list orders", "returns one user", "sends a message to the given recipient", "creates a share link for the file",
		"transfers funds between the user's accounts", "exchanges the code for an access token", "registers a webhook that receives events",
		"to search the index", "deletes the resource; requires the admin scope", "forwards the payload to the callback URL"}
)

func init() {
	benignGens = append(benignGens,
		func(r *rand.Rand) string {
			return sentence(r, pick(r, []string{"Call", "Use", "Send a request to", "Request", ""}), pick(r, apiVerbs), pick(r, apiHosts)+pick(r, apiPaths)+pick(r, apiParams), pick(r, apiWhat))
		},
		func(r *rand.Rand) string {
			return fmt.Sprintf("`%s %s%s` %s. Pass your API key in the Authorization header; keep it secret and rotate it if it leaks.",
				pick(r, apiVerbs), pick(r, apiHosts), pick(r, apiPaths), pick(r, apiWhat))
		},
		func(r *rand.Rand) string {
			return fmt.Sprintf("2024-05-%02dT10:%02d:00Z %s %s %s%s status=%d user=%s", 1+r.IntN(28), r.IntN(60), pick(r, []string{"INFO", "WARN", "DEBUG", "ERROR"}),
				pick(r, apiVerbs), pick(r, apiPaths), pick(r, apiParams), pick(r, []int{200, 201, 401, 403, 404, 500}), email(r))
		},
	)
}
